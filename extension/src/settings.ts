// Redline's settings, read defensively (settings.json is hand-edited: a string or a negative
// number must not reach the store or a terminal), and a change event so that they apply live.

import * as vscode from 'vscode';
import { MAX_REQUEST_TIMEOUT_MS } from '../../shared/protocol';
import { DEFAULT_HISTORY_SIZE, Settings } from './constants';
import { MAX_HISTORY_SIZE } from './review/reviewStore';

export interface RedlineSettings {
  /** Earlier reviews kept on disk, up to MAX_HISTORY_SIZE. */
  readonly historySize: number;
  /** Up to MAX_REQUEST_TIMEOUT_MS; 0: the MCP server's per-method defaults. */
  readonly requestTimeoutMs: number;
}

const LIMITS = {
  historySize: { min: 0, max: MAX_HISTORY_SIZE, fallback: DEFAULT_HISTORY_SIZE },
  requestTimeoutMs: { min: 0, max: MAX_REQUEST_TIMEOUT_MS, fallback: 0 },
} as const satisfies Record<keyof RedlineSettings, { min: number; max: number; fallback: number }>;

export function readSettings(configuration = vscode.workspace.getConfiguration(Settings.section)): RedlineSettings {
  return {
    historySize: boundedInteger(configuration.get<unknown>(Settings.historySize), LIMITS.historySize),
    requestTimeoutMs: boundedInteger(configuration.get<unknown>(Settings.requestTimeoutMs), LIMITS.requestTimeoutMs),
  };
}

/** Calls `listener` with the new settings whenever a Redline setting changes. */
export function onDidChangeSettings(listener: (settings: RedlineSettings) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(Settings.section)) listener(readSettings());
  });
}

/** Out-of-range numbers are clamped; anything that is not a finite number gets the default. */
export function boundedInteger(value: unknown, limits: { min: number; max: number; fallback: number }): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return limits.fallback;
  return Math.min(limits.max, Math.max(limits.min, Math.round(value)));
}
