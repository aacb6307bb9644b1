// A minimal event emitter with VS Code's shape (`event(listener) → disposable`), for modules
// that must not import `vscode` so that they can be tested without an editor.

import { toDisposable, type IDisposable } from '../../shared/lifecycle';

export type Event<T> = (listener: (value: T) => void) => IDisposable;

export class Emitter<T> implements IDisposable {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return toDisposable(() => void this.listeners.delete(listener));
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
