// Frames to pictures: decode the newest, drop the rest.

/**
 * Latest-wins pipeline: at most one decode in flight, at most one decoded picture waiting for the
 * next animation frame; anything older is dropped (and released). Every pushed input is settled
 * exactly once — drawn, overtaken, failed or reset — which is when the server may send the next one.
 */
export class LatestWins<In, Out> {
  private waiting: In | null = null;
  private decoding = false;
  private ready: { input: In; output: Out } | null = null;
  private frameRequested = false;
  private generation = 0;

  constructor(
    private readonly decode: (input: In) => Promise<Out>,
    private readonly draw: (output: Out) => void,
    private readonly release: (output: Out) => void,
    private readonly requestFrame: (callback: () => void) => void,
    private readonly settled: (input: In) => void = () => undefined,
  ) {}

  push(input: In): void {
    if (this.waiting !== null) this.settled(this.waiting);
    this.waiting = input;
    if (!this.decoding) void this.decodeNext();
  }

  reset(): void {
    this.generation += 1;
    if (this.waiting !== null) this.settled(this.waiting);
    this.waiting = null;
    this.dropReady();
  }

  private dropReady(): void {
    const ready = this.ready;
    this.ready = null;
    if (ready === null) return;
    this.release(ready.output);
    this.settled(ready.input);
  }

  private async decodeNext(): Promise<void> {
    while (this.waiting !== null) {
      const input = this.waiting;
      const generation = this.generation;
      this.waiting = null;
      this.decoding = true;
      let output: Out;
      try {
        output = await this.decode(input);
      } catch {
        this.settled(input); // A corrupt frame is skipped; the next one will do.
        continue;
      } finally {
        this.decoding = false;
      }
      if (generation !== this.generation) {
        this.release(output);
        this.settled(input);
        continue;
      }
      this.dropReady();
      this.ready = { input, output };
      this.scheduleDraw();
    }
  }

  private scheduleDraw(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.requestFrame(() => {
      this.frameRequested = false;
      const ready = this.ready;
      this.ready = null;
      if (ready === null) return;
      this.draw(ready.output);
      this.release(ready.output);
      this.settled(ready.input);
    });
  }
}

export function base64ToBytes(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
