// A bridge request the window makes of itself (a command in the palette), through the same handler,
// and the same checks, as an assistant's: an imported review is shown and stored exactly as one
// that came over the socket.

import {
  describeIssues,
  methods,
  type Method,
  type ParamsOf,
  type ResultOf,
  type ValidParamsOf,
} from '../../../shared/protocol';
import type { RequestContext, RequestHandlers } from '../ipc/requestContract';

export function windowRequest<M extends Method>(
  handlers: RequestHandlers,
  method: M,
): (params: ParamsOf<M>) => Promise<ResultOf<M>> {
  return async (params) => {
    const checked = methods[method].params.safeParse(params);
    if (!checked.success) throw new Error(describeIssues(checked.error));
    // No one to cancel it, follow its progress or time it out: the user waits for it in the window.
    const context: RequestContext = {
      signal: new AbortController().signal,
      connectionId: 0,
      progress: () => undefined,
      commit: () => undefined,
    };
    const handler = handlers[method] as (
      params: ValidParamsOf<M>,
      context: RequestContext,
    ) => Promise<ResultOf<M>> | ResultOf<M>;
    return handler(checked.data as ValidParamsOf<M>, context);
  };
}
