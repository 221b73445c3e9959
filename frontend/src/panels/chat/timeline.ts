// The chat's timeline: message bubbles (replies as sanitised Markdown, tool output as text) with each
// run's step block between them. A person's message says who wrote it: "You" on the right, a teammate with their
// avatar on the left, the same on every participant's page.

import type { Message } from "../../api/types";
import { h, replaceChildren, setAttr, type Component } from "../../dom";
import { renderMarkdown } from "../../markdown";
import type { TimelineItem } from "../../timeline";
import type { ConversationView } from "../../state";
import { personLabel, signedInUser } from "../../people";
import { brandMark } from "../brand";
import { setPersonAvatar } from "../person";
import { createRunBlock } from "../steps";
import type { RunActions } from "../steps/model";

const ROLE_LABEL: Record<Message["role"], string> = {
  user: "You",
  assistant: "Hive agent",
  tool: "Tool",
  system: "System",
};
const ROLE_INITIAL: Record<Message["role"], string | null> = { user: null, assistant: null, tool: "⚙", system: "i" };

/** Who a message is from, as the reader `me` sees it: "You", a teammate's name, or the agent. */
export function messageLabel(role: Message["role"], author: string | null | undefined, me: string): string {
  if (role === "user") return personLabel(author, ROLE_LABEL.user, me);
  return ROLE_LABEL[role];
}

interface BubbleData {
  author?: string | null;
  role: Message["role"];
  content: string;
  streaming: boolean;
  interrupted: boolean;
  id: string;
}

function createBubble(initial: BubbleData): Component<BubbleData> {
  const avatar = h("div", { class: "msg-avatar", "aria-hidden": "true" });
  const content = h("div", { class: "msg-content" });
  const label = h("div", { class: "msg-label" });
  const el = h(
    "div",
    { class: "msg", "data-testid": "message" },
    avatar,
    h("div", { class: "msg-body" }, label, content),
  );
  let shown: string | null = null;
  const update = (data: BubbleData): void => {
    const me = signedInUser();
    const mine = data.role === "user" && (!data.author || data.author === me);
    el.className = `msg msg-${data.role}`;
    el.classList.toggle("msg-mine", mine);
    el.classList.toggle("msg-theirs", data.role === "user" && !mine);
    el.classList.toggle("streaming", data.streaming);
    el.classList.toggle("interrupted", data.interrupted);
    setAttr(el, "data-role", data.role);
    setAttr(el, "data-message-id", data.id);
    setAttr(el, "data-streaming", data.streaming ? "true" : null);
    // Avatar and label are drawn by CSS from attributes so the bubble's text is the message alone.
    if (data.role === "assistant" && !avatar.firstChild) avatar.appendChild(brandMark(18));
    setAttr(avatar, "data-initial", ROLE_INITIAL[data.role]);
    if (data.role === "user") setPersonAvatar(avatar, data.author ?? null);
    setAttr(label, "data-label", messageLabel(data.role, data.author, me));
    setAttr(el, "data-author", data.author ?? null);
    const text = data.content + (data.interrupted ? "\n\n(Reply interrupted.)" : "");
    if (text !== shown) {
      shown = text;
      // Tool output carries page content: shown as text, never parsed. Replies and messages are Markdown.
      if (data.role === "tool") replaceChildren(content, h("pre", { class: "tool-output" }, text));
      else renderMarkdown(content, text);
    }
  };
  update(initial);
  return { el, update };
}

function bubbleData(item: Exclude<TimelineItem, { kind: "run" }>): BubbleData {
  if (item.kind === "message") {
    const m = item.message;
    return {
      role: m.role,
      author: item.author,
      content: m.content,
      streaming: false,
      interrupted: false,
      id: String(m.id),
    };
  }
  return { role: "assistant", content: item.text, streaming: item.active, interrupted: !item.active, id: item.key };
}

export function createTimelineItem(initial: TimelineItem, actions?: RunActions): Component<TimelineItem> {
  if (initial.kind === "run") {
    const block = createRunBlock(initial, actions);
    return {
      el: block.el,
      update: (item) => item.kind === "run" && block.update(item),
      destroy: () => block.destroy?.(),
    };
  }
  const bubble = createBubble(bubbleData(initial));
  return {
    el: bubble.el,
    update: (item) => {
      if (item.kind !== "run") bubble.update(bubbleData(item));
    },
  };
}

// --- Uploaded files ---

/** Whether the timeline needs drawing again (the parts of the view it shows changed). */
export function timelineChanged(a: ConversationView, b: ConversationView): boolean {
  return (
    a.messages !== b.messages ||
    a.runs !== b.runs ||
    a.steps !== b.steps ||
    a.confirmations !== b.confirmations ||
    a.plans !== b.plans ||
    a.streaming !== b.streaming ||
    a.loaded !== b.loaded ||
    a.loadError !== b.loadError
  );
}
