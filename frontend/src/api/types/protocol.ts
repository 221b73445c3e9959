// The websocket /ws/conversations/<id>/ protocol, both ways. Server → client: the events generated from their
// Python definitions (./events, `make protocol`); client → server: the messages below.

export type * from "./events";

// Websocket — client → server.

/** `down`/`up` press and release a button (a drag: down, moves, up); `click` is both at one point. */
export type InputKind = "click" | "move" | "down" | "up" | "wheel" | "key" | "text";
export type MouseButton = "left" | "middle" | "right";
/** Lower-case modifier names, as browser_pool/input.py (MODIFIER_BITS) accepts them. */
export type Modifier = "alt" | "control" | "meta" | "shift";

export interface InputCommand {
  kind: InputKind;
  /** 0–1 of the picture's width */
  x: number;
  /** 0–1 of the picture's height */
  y: number;
  button?: MouseButton;
  delta_x?: number;
  delta_y?: number;
  key?: string;
  text?: string;
  modifiers?: Modifier[];
}

/**
 * `frame.ack` tells the server the last frame was drawn (or dropped), so it may send the next one: the
 * server paces frames per viewer on it (webapp/conversations/consumers.py; not yet in docs/architecture.md).
 */
export type ClientMessage =
  | { type: "ping" }
  | { type: "frame.ack" }
  | { type: "control.take" }
  | { type: "control.release" }
  | ({ type: "input" } & InputCommand);
