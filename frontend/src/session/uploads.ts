// Files uploaded for the agent: each shows as a chip while it uploads and after; a refusal goes to the notice.

import { ApiError } from "../api/errors";
import { errorText } from "../errors";
import type { SessionContext } from "./context";

/** Keys the file chips of uploads in progress (unique across conversations of this page). */
let uploadCounter = 0;

export class Uploads {
  constructor(private readonly ctx: SessionContext) {}

  /** Uploads a file for the agent; it shows as a chip while uploading and after. Errors go to the notice. */
  async upload(file: File): Promise<void> {
    const { api, id, store } = this.ctx;
    const key = `u${++uploadCounter}`;
    const chip = { key, id: null, name: file.name, size: file.size };
    store.update((view) => ({ ...view, files: [...view.files, chip] }));
    try {
      const stored = await api.uploadFile(id, file, file.name);
      store.update((view) => ({
        ...view,
        files: view.files.map((f) => (f.key === key ? { key, ...stored } : f)),
        notice: null,
      }));
    } catch (err) {
      store.update((view) => ({ ...view, files: view.files.filter((f) => f.key !== key) }));
      const text =
        err instanceof ApiError && err.status === 413 && !err.detail
          ? `“${file.name}” is too large to upload.`
          : `Could not upload “${file.name}”: ${errorText(err)}`;
      this.ctx.showNotice(text);
    }
  }

  /** Hides a file's chip (the file stays available to the agent). */
  dismiss(key: string): void {
    this.ctx.store.update((view) => ({ ...view, files: view.files.filter((f) => f.key !== key) }));
  }
}
