"""Drives Redline's built MCP server with the official Python MCP SDK, a client written apart from
the TypeScript SDK that our own tests use. test/integration/pythonClient.test.ts runs it with the
venv that test/python/install.mjs makes, and asserts on the JSON report it prints on stdout.

Every protocol version the SDK can initialize with is tried on a fresh server, then a plain
ClientSession makes the tool calls, and the SDK's high-level Client connects as an application
would: it probes server/discover first, and Redline answers it (2026-07-28).

argv[1] is a JSON object:
  server:        {"command", "args", "env", "cwd"} to start the built server
  clientName:    the MCP clientInfo name (the window keeps one review per name)
  calls:         [{"name", "arguments"}] tool calls to make after the plain initialize()
  autoCalls:     the same, on the connection made by the SDK's high-level Client
  timeoutSeconds: the whole run's limit

With --interactive as argv[1] instead, it is the conformance table's Python client
(test/integration/conformance/clients.ts): see Interactive.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version as installed_version
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.client.session import ClientRequestContext
from mcp.shared.message import SessionMessage
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, SUPPORTED_PROTOCOL_VERSIONS

REQUEST_TIMEOUT_SECONDS = 60.0


class Wire:
    """Everything that crossed one connection: the lines sent, and the messages received."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.received: list[dict[str, Any]] = []

    @asynccontextmanager
    async def tap(self, transport: Any) -> AsyncIterator[tuple[Any, Any]]:
        """The transport's streams, with a copy of each message kept here on its way through."""
        async with transport as (from_server, to_server):
            to_session_send, to_session = anyio.create_memory_object_stream[SessionMessage | Exception](0)
            from_session, from_session_receive = anyio.create_memory_object_stream[SessionMessage](0)

            # The session may close its end before this context cancels the pumps (a message the
            # server sends as the session ends then has no reader): that is the end, not a failure.
            async def inbound() -> None:
                async with to_session_send:
                    async for item in from_server:
                        if isinstance(item, SessionMessage):
                            self.received.append(item.message.model_dump(mode="json", by_alias=True, exclude_unset=True))
                        try:
                            await to_session_send.send(item)
                        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                            return

            async def outbound() -> None:
                async with from_session_receive:
                    async for item in from_session_receive:
                        # Serialized as the stdio transport writes it (mcp/client/stdio.py).
                        self.sent.append(item.message.model_dump_json(by_alias=True, exclude_unset=True))
                        try:
                            await to_server.send(item)
                        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                            return

            async with anyio.create_task_group() as pumps:
                pumps.start_soon(inbound)
                pumps.start_soon(outbound)
                try:
                    yield to_session, from_session
                finally:
                    pumps.cancel_scope.cancel()

    def reply_to(self, method: str) -> dict[str, Any]:
        """The raw result (or error) the server sent back to the first request for `method`."""
        request = next((json.loads(line) for line in self.sent if json.loads(line).get("method") == method), None)
        if request is None:
            raise AssertionError(f"no {method} request was sent; sent: {self.sent}")
        reply = next((m for m in self.received if m.get("id") == request["id"] and ("result" in m or "error" in m)), None)
        if reply is None:
            raise AssertionError(f"no reply to {method} (id {request['id']}); received: {self.received}")
        return reply


# The client's capabilities come from these callbacks, as in any client that offers them: the
# initialize request then carries sampling, elicitation and roots, which the entry must recognize.
async def no_sampling(context: ClientRequestContext, params: types.CreateMessageRequestParams) -> types.ErrorData:
    return types.ErrorData(code=types.INVALID_REQUEST, message="This test client does not sample.")


async def no_elicitation(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ErrorData:
    return types.ErrorData(code=types.INVALID_REQUEST, message="This test client does not elicit.")


async def no_roots(context: ClientRequestContext) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[])


def capabilities_with_callbacks() -> types.ClientCapabilities:
    """What ClientSession.initialize() announces for the callbacks above (session.py, _build_capabilities)."""
    return types.ClientCapabilities(
        sampling=types.SamplingCapability(),
        elicitation=types.ElicitationCapability(form=types.FormElicitationCapability(), url=types.UrlElicitationCapability()),
        roots=types.RootsCapability(list_changed=True),
    )


class Driver:
    """The connections the report is made of, each to a server of its own; `step` says where it got to."""

    def __init__(self, config: dict[str, Any]) -> None:
        server = config["server"]
        self.params = StdioServerParameters(command=server["command"], args=server["args"], env=server["env"], cwd=server["cwd"])
        self.client_info = types.Implementation(name=config["clientName"], version=installed_version("mcp"))
        self.config = config
        self.step = "starting"

    @asynccontextmanager
    async def session(self, wire: Wire) -> AsyncIterator[ClientSession]:
        async with wire.tap(stdio_client(self.params)) as (read_stream, write_stream):
            async with ClientSession(
                read_stream,
                write_stream,
                read_timeout_seconds=REQUEST_TIMEOUT_SECONDS,
                sampling_callback=no_sampling,
                elicitation_callback=no_elicitation,
                list_roots_callback=no_roots,
                client_info=self.client_info,
            ) as session:
                yield session

    async def handshake_at(self, protocol_version: str) -> dict[str, Any]:
        """initialize at `protocol_version`, initialized and tools/list, the way the SDK's initialize() does them."""
        wire = Wire()
        async with self.session(wire) as session:
            # ClientSession.initialize() always asks for LATEST_HANDSHAKE_VERSION; this is that
            # method with the version as a parameter.
            result = await session.send_request(
                types.InitializeRequest(
                    params=types.InitializeRequestParams(
                        protocol_version=protocol_version, capabilities=capabilities_with_callbacks(), client_info=self.client_info
                    )
                ),
                types.InitializeResult,
            )
            if result.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
                # What initialize() raises: the SDK would hang up here.
                raise RuntimeError(f"Unsupported protocol version from the server: {result.protocol_version}")
            session.adopt(result)
            await session.send_notification(types.InitializedNotification())
            await session.list_tools()
        return {
            "requested": protocol_version,
            "negotiated": result.protocol_version,
            "initialize": wire.reply_to("initialize"),
            "toolsList": wire.reply_to("tools/list"),
            "sent": wire.sent,
        }

    async def call_tools(self, call_tool: Any, tools: list[types.Tool], calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each call in turn. The SDK checks a result's structuredContent against the tool's outputSchema
        (ClientSession.validate_tool_result) and raises when it does not conform."""
        schemas = {tool.name: tool.output_schema for tool in tools}
        results = []
        for call in calls:
            self.step = f"calling {call['name']}"
            result = await call_tool(call["name"], call.get("arguments") or {})
            results.append(
                {
                    "name": call["name"],
                    "isError": result.is_error,
                    "structuredContent": result.structured_content,
                    "text": [block.text for block in result.content if isinstance(block, types.TextContent)],
                    # The condition under which validate_tool_result checked it.
                    "validatedAgainstOutputSchema": schemas.get(call["name"]) is not None and not result.is_error,
                }
            )
        return results

    async def plain_session(self) -> dict[str, Any]:
        """ClientSession.initialize() as it is, then the tools: what a low-level SDK client does."""
        wire = Wire()
        async with self.session(wire) as session:
            self.step = "initialize() on a plain session"
            initialized = await session.initialize()
            self.step = "list_tools() on a plain session"
            listed = await session.list_tools()
            calls = await self.call_tools(session.call_tool, listed.tools, self.config["calls"])
        return {
            "negotiated": initialized.protocol_version,
            "tools": [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed.tools],
            "calls": calls,
            "sent": wire.sent,
        }

    async def auto_client(self) -> dict[str, Any]:
        """The SDK's high-level Client, as a Python application would connect: its default mode probes
        server/discover (2026-07-28), and uses that revision when the server answers it."""
        wire = Wire()
        async with Client(
            wire.tap(stdio_client(self.params)), client_info=self.client_info, read_timeout_seconds=REQUEST_TIMEOUT_SECONDS
        ) as client:
            negotiated = client.protocol_version
            self.step = "list_tools() on the high-level Client"
            listed = await client.list_tools()
            calls = await self.call_tools(client.call_tool, listed.tools, self.config["autoCalls"])
        return {
            "negotiated": negotiated,
            "methods": [json.loads(line).get("method") for line in wire.sent],
            "discover": wire.reply_to("server/discover"),
            "calls": calls,
        }

    async def run(self) -> dict[str, Any]:
        versions = []
        for protocol_version in SUPPORTED_PROTOCOL_VERSIONS:
            self.step = f"the handshake at {protocol_version}"
            versions.append(await self.handshake_at(protocol_version))
        plain = await self.plain_session()
        self.step = "connecting with the high-level Client"
        auto = await self.auto_client()
        return {
            "sdk": {
                "mcp": installed_version("mcp"),
                "python": sys.version.split()[0],
                "supportedProtocolVersions": list(SUPPORTED_PROTOCOL_VERSIONS),
                "latestHandshakeVersion": LATEST_HANDSHAKE_VERSION,
            },
            "versions": versions,
            "plain": plain,
            "auto": auto,
        }


class Interactive:
    """The conformance table's client: commands come as JSON lines on stdin, each with a "ref" that
    its answer carries back as a JSON line on stdout. Calls run concurrently, as a busy client's do.
      {"op": "connect", "server", "clientName"} -> {"session", "tools"}: a plain session's
          initialize() and list_tools(), after which the SDK checks each result against the tool's
          output schema (validate_tool_result)
      {"op": "call", "session", "name", "arguments"} -> {"result": {"isError", "text", "structuredContent"}},
          or {"thrown": what the SDK raised instead of handing the result back}
      {"op": "cancel", "call": <that call's ref>} -> the call answers {"cancelled": true}
      {"op": "wire", "session"} -> {"received", "sent"}: every message that crossed the connection
          so far, as the transport read and wrote them, before the session made anything of them
      {"op": "close", "session"} -> {} once the server is gone
    """

    def __init__(self) -> None:
        self.sessions: dict[str, tuple[ClientSession, anyio.Event, anyio.Event]] = {}
        self.wires: dict[str, Wire] = {}
        self.calls: dict[str, anyio.CancelScope] = {}

    @staticmethod
    def answer(ref: str, **fields: Any) -> None:
        print(json.dumps({"ref": ref, **fields}), flush=True)

    async def connect(self, command: dict[str, Any]) -> None:
        ref = command["ref"]
        closing, ended = anyio.Event(), anyio.Event()
        try:
            driver = Driver({"server": command["server"], "clientName": command["clientName"]})
            self.wires[ref] = wire = Wire()
            async with driver.session(wire) as session:
                await session.initialize()
                listed = await session.list_tools()
                self.sessions[ref] = (session, closing, ended)
                tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed.tools]
                self.answer(ref, session=ref, tools=tools)
                await closing.wait()
        except Exception as error:
            if ref not in self.sessions:
                self.answer(ref, thrown="; ".join(repr(leaf) for leaf in innermost(error)))
        finally:
            ended.set()

    async def call(self, command: dict[str, Any]) -> None:
        ref = command["ref"]
        session = self.sessions[command["session"]][0]
        with anyio.CancelScope() as scope:
            self.calls[ref] = scope
            try:
                result = await session.call_tool(command["name"], command.get("arguments") or {})
            except Exception as error:
                self.answer(ref, thrown="; ".join(f"{type(leaf).__name__}: {leaf}" for leaf in innermost(error)))
                return
            finally:
                self.calls.pop(ref, None)
            text = [block.text for block in result.content if isinstance(block, types.TextContent)]
            self.answer(ref, result={"isError": bool(result.is_error), "text": text, "structuredContent": result.structured_content})
            return
        # Only a cancelled call gets here: the scope swallowed its cancellation.
        self.answer(ref, cancelled=True)

    async def wire(self, command: dict[str, Any]) -> None:
        wire = self.wires[command["session"]]
        self.answer(command["ref"], received=wire.received, sent=[json.loads(line) for line in wire.sent])

    async def close(self, command: dict[str, Any]) -> None:
        _, closing, ended = self.sessions.pop(command["session"])
        closing.set()
        await ended.wait()
        self.answer(command["ref"])

    async def run(self) -> None:
        async with anyio.create_task_group() as tasks:
            async for line in anyio.wrap_file(sys.stdin):
                command = json.loads(line)
                if command["op"] == "cancel":
                    scope = self.calls.get(command["call"])
                    if scope is not None:
                        scope.cancel()
                elif command["op"] in ("connect", "call", "wire", "close"):
                    tasks.start_soon(getattr(self, command["op"]), command)
                else:
                    self.answer(command.get("ref", ""), thrown=f"unknown op {command['op']!r}")
            # Input closed: every session ends, and with it its server.
            for _, closing, _ in self.sessions.values():
                closing.set()


def innermost(error: BaseException) -> list[BaseException]:
    """The errors inside anyio's nested exception groups, which say what actually went wrong."""
    inner = getattr(error, "exceptions", None)
    return [leaf for sub in inner for leaf in innermost(sub)] if inner else [error]


async def main() -> None:
    if sys.argv[1] == "--interactive":
        await Interactive().run()
        return
    config = json.loads(sys.argv[1])
    driver = Driver(config)
    try:
        with anyio.fail_after(config["timeoutSeconds"]):
            report = await driver.run()
    except BaseException as error:
        # The test prints this stderr when the script fails: say where it stopped first.
        causes = "; ".join(repr(leaf) for leaf in innermost(error))
        print(f"drive_server.py failed during {driver.step}: {causes}", file=sys.stderr)
        traceback.print_exception(error, file=sys.stderr)
        sys.exit(1)
    print(json.dumps(report))


if __name__ == "__main__":
    anyio.run(main)
