import { describe, expect, it } from "vitest";
import { fakeJpeg } from "./jpeg-testing.ts";
import { packRects, ScreenFrame, SCREEN_LIMITS } from "./screen-protocol.ts";

const frame = (width: number, height: number) => ({
  screen: "0",
  seq: 1,
  width,
  height,
  full: true,
  ...packRects([{ x: 0, y: 0, w: 8, h: 8, jpeg: fakeJpeg(8, 8) }]),
});

describe("ScreenFrame's picture size (issue 37 §1)", () => {
  it("accepts a full picture as large as an 8K screen", () => {
    expect(ScreenFrame.safeParse(frame(7680, 4320)).success).toBe(true);
    expect(ScreenFrame.safeParse(frame(6016 * 2, 3384)).success).toBe(false);
  });

  it("refuses a picture past it even when its rectangles are tiny (the canvas is the bomb)", () => {
    const checked = ScreenFrame.safeParse(frame(SCREEN_LIMITS.maxSide, SCREEN_LIMITS.maxSide));
    expect(checked.success).toBe(false);
    expect(checked.error?.issues[0]?.message).toBe("L'image dépasse la taille d'un écran 8K.");
  });
});
