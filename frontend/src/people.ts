// Who did something, as every participant's page says it: "You" for the signed-in user, else the person's name, with
// an avatar of their initials on a colour that comes from the name (the same colour on every screen). Pure.

/** The signed-in user's name, so the dashboard can say "You" for what they did themselves. */
let signedIn = "";

export function setSignedInUser(username: string): void {
  signedIn = username;
}

export function signedInUser(): string {
  return signedIn;
}

/** "You" for the signed-in user, else the name; `fallback` when nobody is known. */
export function personLabel(username: string | null | undefined, fallback = "Someone", me: string = signedIn): string {
  if (!username) return fallback;
  return me !== "" && username === me ? "You" : username;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** A word's first letter as a reader sees it (an accented letter or an emoji stays whole). */
function firstLetter(word: string): string {
  for (const { segment } of segmenter.segment(word)) return segment;
  return "";
}

/** Up to two letters: "ada" → "A", "ada.lovelace", "ada_lovelace" or "AdaLovelace" → "AL". */
export function initials(username: string): string {
  const words = username
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[\s._\-@+]+/)
    .filter(Boolean);
  const letters = words.slice(0, 2).map((word) => firstLetter(word));
  return letters.join("").toUpperCase() || "?";
}

/** A hue (0–359) from the name: the same person gets the same colour on everyone's page. */
export function personHue(username: string): number {
  let hash = 2166136261;
  for (const char of username) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) % 360;
}
