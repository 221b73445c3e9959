import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { shareLinkErrorText } from "./sharelink";

describe("a share link that cannot be used", () => {
  it("says why: unknown, or the server's reason for a revoked or expired one", () => {
    expect(shareLinkErrorText(new ApiError(404, { detail: "Not found." }, "404"))).toMatch(/does not exist/);
    expect(
      shareLinkErrorText(new ApiError(410, { detail: "This share link expired. Ask the owner for a new one." }, "410")),
    ).toBe("This share link expired. Ask the owner for a new one.");
    expect(shareLinkErrorText(new ApiError(410, null, "410"))).toMatch(/no longer valid/);
    expect(
      shareLinkErrorText(new ApiError(403, { detail: "The owner removed your access from this link." }, "403")),
    ).toBe("The owner removed your access from this link.");
  });
});
