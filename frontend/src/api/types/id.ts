// The id of a stored record (a conversation, a run, a share …).

export type Id = number;
