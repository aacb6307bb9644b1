// The extension's log sink: the window's "Redline" output channel. The channel filters by the level
// the user picked (Developer: Set Log Level…), so debug lines cost nothing until someone asks.

import type * as vscode from 'vscode';
import { formatFields, type LogSink } from '../../shared/logger';

export function outputChannelSink(channel: vscode.LogOutputChannel): LogSink {
  return {
    write({ level, component, message, fields }) {
      const facts = formatFields(fields);
      channel[level](`[${component}] ${message}${facts ? ` ${facts}` : ''}`);
    },
  };
}
