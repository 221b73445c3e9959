// The address bar's text: what a person typed, as a web address to open (or why it is not one), and a
// tab's address as shown.

export type AddressResult = { url: string; error?: undefined } | { url?: undefined; error: string };

const LOOPBACK = /^(localhost|[\w-]+\.localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|::1)$/;

/**
 * What the address bar navigates to for what was typed: an http(s) address as is; without a scheme,
 * `https://` in front — `http://` for this machine (localhost, 127.0.0.1, [::1]), which rarely speaks TLS.
 * Anything else the browser could not open (mailto:, javascript:, words with spaces) is an error to show.
 */
export function normalizeAddress(raw: string): AddressResult {
  const text = raw.trim();
  if (!text) return { error: "Type an address, such as example.com." };
  if (/\s/.test(text)) return { error: `“${text}” is not a web address. Type one such as example.com.` };
  const scheme = /^([a-z][a-z\d+.-]*):\/\//i.exec(text);
  const name = scheme?.[1]?.toLowerCase();
  if (scheme && name) {
    if (name !== "http" && name !== "https") return { error: notWeb(name) };
    if (text.length === scheme[0].length) return { error: `“${text}” is not a complete web address.` };
    return { url: text };
  }
  if (text.startsWith("//")) return { url: `https:${text}` };
  // "mailto:…", "about:blank", but not a host and port ("localhost:8000", "example.com:8080/a").
  const opaque = /^([a-z][a-z\d+.-]*):(?!\d+(?:[/?#]|$))/i.exec(text)?.[1];
  if (opaque) return { error: notWeb(opaque.toLowerCase()) };
  const host = (text.split(/[/?#]/, 1)[0] ?? "")
    .replace(/^.*@/, "")
    .replace(/:\d*$/, "")
    .replace(/^\[(.*)\]$/, "$1")
    .toLowerCase();
  return { url: `${LOOPBACK.test(host) ? "http" : "https"}://${text}` };
}

function notWeb(scheme: string): string {
  return `${scheme}: addresses cannot be opened here; only web pages (http and https).`;
}

/** The address shown for a tab: nothing for a blank tab, so the placeholder invites typing one. */
export function shownAddress(url: string | undefined): string {
  return !url || url === "about:blank" ? "" : url;
}
