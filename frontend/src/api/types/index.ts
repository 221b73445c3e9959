// The REST API's and the websocket protocol's types, mirroring docs/architecture.md (keep them in step with it):
// one module per resource, all importable from here.

export type * from "./id";
export type * from "./auth";
export type * from "./conversations";
export type * from "./runs";
export type * from "./tabs";
export type * from "./tools";
export type * from "./sharing";
export type * from "./modelprofiles";
export type * from "./memory";
export type * from "./workflows";
export type * from "./usage";
export type * from "./browserprofiles";
export type * from "./vault";
export type * from "./recordings";
export type * from "./protocol";
