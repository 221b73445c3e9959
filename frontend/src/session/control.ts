// The live browser's controls: take them (the agent pauses after its current step) or hand them back,
// and who holds them, where a slower answer never overwrites a fresher `control.updated`.

import { errorText } from "../errors";
import type { SessionContext } from "./context";

export class BrowserControl {
  /** Counts control.updated events (and hellos), so a slower answer never overwrites a fresher holder. */
  private events = 0;

  constructor(private readonly ctx: SessionContext) {}

  /** The websocket said who holds the controls. */
  noteEvent(): void {
    this.events += 1;
  }

  /**
   * Takes the controls or hands them back. The answer says who holds them now (as `control.updated` tells
   * everyone watching); a refusal (409: someone else holds them, 403: not a controller) goes to the notice.
   */
  async set(action: "take" | "release"): Promise<void> {
    const { store, api, id } = this.ctx;
    const view = store.get();
    if (view.control.pending || view.revoked) return;
    const eventsBefore = this.events;
    store.update((v) => ({ ...v, control: { ...v.control, pending: action } }));
    try {
      const { holder } = await api.setControl(id, action);
      if (this.ctx.isDisposed()) return;
      store.update((v) => ({
        ...v,
        // A control.updated that came meanwhile is at least as fresh as this answer.
        control: { holder: this.events === eventsBefore ? (holder ?? null) : v.control.holder, pending: null },
      }));
    } catch (err) {
      if (this.ctx.isDisposed()) return;
      store.update((v) => ({ ...v, control: { ...v.control, pending: null } }));
      this.ctx.showNotice(errorText(err));
      await this.load();
    }
  }

  /** Asks who holds the controls (after a refusal, the page's idea of it was wrong). */
  async load(): Promise<void> {
    const eventsBefore = this.events;
    try {
      const { holder } = await this.ctx.api.getControl(this.ctx.id);
      if (this.ctx.isDisposed() || this.events !== eventsBefore) return;
      this.ctx.store.update((v) => ({ ...v, control: { holder: holder ?? null, pending: v.control.pending } }));
    } catch {
      // The websocket's control.updated will say it.
    }
  }
}
