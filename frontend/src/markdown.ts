// The agent's replies as Markdown (markdown-it), sanitised (DOMPurify) before they touch the page: lists, tables,
// headings, code blocks with a copy button; links only to http(s) and mail, opening in a new tab without an opener.
// Raw HTML in a reply is shown as text, never parsed. Page content (tabs, tool results, observations) never comes
// here: it is always set as text.

import DOMPurify from "dompurify";
import MarkdownIt from "markdown-it";
import { copyText } from "./clipboard";
import { h } from "./dom";

const SAFE_URL = /^(?:https?:|mailto:)/i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
md.validateLink = (url: string): boolean => SAFE_URL.test(url.trim());

const openLink = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  if (token) {
    token.attrSet("target", "_blank");
    token.attrSet("rel", "noopener noreferrer");
  }
  return openLink ? openLink(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

/** Markdown → HTML that is safe to insert: only formatting elements, only safe links. */
export function markdownToSafeHtml(text: string): string {
  return DOMPurify.sanitize(md.render(text), {
    ALLOWED_URI_REGEXP: SAFE_URL,
    ADD_ATTR: ["target"],
    ADD_URI_SAFE_ATTR: ["target", "rel"], // plain values, not URLs: the URL rule above must not strip them
    FORBID_TAGS: ["style", "img", "iframe", "form", "input", "button"],
  });
}

/** Render a reply into `el`; each code block gets a copy button. */
export function renderMarkdown(el: HTMLElement, text: string): void {
  el.innerHTML = markdownToSafeHtml(text);
  for (const pre of Array.from(el.querySelectorAll("pre"))) {
    pre.classList.add("code-block");
    const code = pre.textContent;
    const copy = h(
      "button",
      {
        class: "copy-code",
        type: "button",
        "aria-label": "Copy the code",
        onclick: () => {
          void copyText(code).then((copied) => {
            copy.textContent = copied ? "Copied" : "Copy failed";
          });
        },
      },
      "Copy",
    );
    pre.append(copy);
  }
}
