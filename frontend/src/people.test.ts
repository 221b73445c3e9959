import { describe, expect, it } from "vitest";
import { initials, personHue, personLabel } from "./people";

describe("who did it", () => {
  it("says You for the reader and the name for anyone else", () => {
    expect(personLabel("ada", "Someone", "ada")).toBe("You");
    expect(personLabel("ada", "Someone", "bob")).toBe("ada");
    expect(personLabel(null, "By hand", "bob")).toBe("By hand");
    // Nobody signed in yet: never "You".
    expect(personLabel("ada", "Someone", "")).toBe("ada");
  });

  it("makes an avatar's initials from a username", () => {
    expect(initials("ada")).toBe("A");
    expect(initials("ada.lovelace")).toBe("AL");
    expect(initials("grace_hopper_x")).toBe("GH");
    expect(initials("AdaLovelace")).toBe("AL");
    expect(initials("émile")).toBe("É");
    expect(initials("___")).toBe("?");
  });

  it("gives each name its own colour, the same on every page", () => {
    expect(personHue("ada")).toBe(personHue("ada"));
    expect(personHue("ada")).not.toBe(personHue("bob"));
    for (const name of ["ada", "bob", "grace", "linus", "李雷"]) {
      expect(personHue(name)).toBeGreaterThanOrEqual(0);
      expect(personHue(name)).toBeLessThan(360);
    }
  });
});
