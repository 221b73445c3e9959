// What a component registered outside its own elements (listeners on window or document, timers, media queries,
// subscriptions), kept so that disposing the component removes all of it at once.

export type Disposer = () => void;

export class Disposables {
  private readonly disposers: Disposer[] = [];
  private disposed = false;

  /** Keeps `disposer` to run on `dispose()` (at once when already disposed). */
  add(disposer: Disposer): void {
    if (this.disposed) disposer();
    else this.disposers.push(disposer);
  }

  /** `target.addEventListener(type, listener)`, removed on `dispose()`. */
  listen<K extends keyof WindowEventMap>(target: Window, type: K, listener: (event: WindowEventMap[K]) => void): void;
  listen<K extends keyof DocumentEventMap>(
    target: Document,
    type: K,
    listener: (event: DocumentEventMap[K]) => void,
  ): void;
  listen(target: EventTarget, type: string, listener: (event: Event) => void): void;
  listen(target: EventTarget, type: string, listener: (event: Event) => void): void {
    target.addEventListener(type, listener);
    this.add(() => target.removeEventListener(type, listener));
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const disposer of this.disposers.splice(0).reverse()) disposer();
  }
}
