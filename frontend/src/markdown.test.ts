// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { markdownToSafeHtml, renderMarkdown } from "./markdown";

afterEach(() => {
  Reflect.deleteProperty(navigator, "clipboard");
});

describe("markdown replies", () => {
  it("renders lists, tables, headings and code", () => {
    const html = markdownToSafeHtml("# Flights\n\n- PEK → SHA\n- $180\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nx = 1\n```");
    expect(html).toContain("<h1>Flights</h1>");
    expect(html).toContain("<li>PEK → SHA</li>");
    expect(html).toContain("<table>");
    expect(html).toContain("<td>2</td>");
    expect(html).toContain("<pre><code>x = 1\n</code></pre>");
  });

  it("opens links safely and drops dangerous ones", () => {
    const html = markdownToSafeHtml("[docs](https://example.com) [x](javascript:alert(1)) https://a.example/b");
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).not.toContain('href="javascript:'); // the refused link stays as plain text
    expect(html).toContain('href="https://a.example/b"');
  });

  it("never lets HTML or script through", () => {
    const attempts = [
      "<img src=x onerror=alert(1)>",
      "<script>alert(1)</script>",
      "[click](data:text/html,<script>alert(1)</script>)",
      '<a href="javascript:alert(1)">x</a>',
      "![pic](https://example.com/x.png)",
      "<iframe src=https://evil.example></iframe>",
    ];
    for (const attempt of attempts) {
      const el = document.createElement("div");
      renderMarkdown(el, attempt);
      expect(el.querySelector("script, img, iframe, [onerror]")).toBeNull();
      expect(el.querySelector("a[href^='javascript'], a[href^='data']")).toBeNull();
    }
  });

  it("gives code blocks a copy button", () => {
    const el = document.createElement("div");
    renderMarkdown(el, "```python\nprint('hi')\n```");
    const pre = el.querySelector("pre.code-block");
    expect(pre).not.toBeNull();
    expect(pre?.querySelector("button.copy-code")?.textContent).toBe("Copy");
  });

  it("copies the code alone, not the button's label", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const el = document.createElement("div");
    renderMarkdown(el, "```\nls -la\n```");
    const button = el.querySelector<HTMLButtonElement>("button.copy-code")!;
    button.click();
    await vi.waitFor(() => expect(button.textContent).toBe("Copied"));
    expect(writeText).toHaveBeenCalledWith("ls -la\n");
  });
});
