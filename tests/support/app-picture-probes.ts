/**
 * Reading the desktop app's picture in the technician's browser (issues 26, 36): pixels of the remote view's
 * canvas (`app-screen`), and, for the Windows spec, where Wine's Notepad shows its first line of text. The
 * canvas holds the picture at its own size (px), whatever the size it is drawn at.
 */
import type { Page } from "@playwright/test";

/** RGB of the technician's canvas at picture pixel (x, y). */
export function canvasPixel(page: Page, x: number, y: number): Promise<number[]> {
  return page
    .getByTestId("app-screen")
    .evaluate(
      (canvas, [px, py]) =>
        Array.from((canvas as HTMLCanvasElement).getContext("2d")!.getImageData(px!, py!, 1, 1).data.slice(0, 3)),
      [x, y],
    );
}

/** The darkest luminance in a rectangle of the canvas. */
export function canvasDarkest(page: Page, x: number, y: number, w: number, h: number): Promise<number> {
  return page.getByTestId("app-screen").evaluate(
    (canvas, [rx, ry, rw, rh]) => {
      const data = (canvas as HTMLCanvasElement).getContext("2d")!.getImageData(rx!, ry!, rw!, rh!).data;
      let min = 255;
      for (let i = 0; i < data.length; i += 4)
        min = Math.min(min, 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
      return min;
    },
    [x, y, w, h],
  );
}

/**
 * The share (0–1) of clearly blue pixels in a rectangle of the canvas. Blue is a hue, not a value: a JPEG's
 * halved chroma (4:2:0) smears the white letters of a selection into the band, more at a lower quality (a
 * loaded machine), so « red well below blue » counts, not a fixed red ceiling (18 % of the band passed that once).
 */
export function blueShare(page: Page, x: number, y: number, w: number, h: number): Promise<number> {
  return page.getByTestId("app-screen").evaluate(
    (canvas, [rx, ry, rw, rh]) => {
      const data = (canvas as HTMLCanvasElement).getContext("2d")!.getImageData(rx!, ry!, rw!, rh!).data;
      let blue = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 2]! > 170 && data[i + 2]! - data[i]! > 60) blue++;
      return blue / (data.length / 4);
    },
    [x, y, w, h],
  );
}

/** The first line of text inside Notepad's window in the picture: its middle row, px (x: the window's left). */
export async function findTextLine(
  tech: Page,
  notepadBox: { x: number; y: number; width: number; height: number },
): Promise<{ x: number; y: number }> {
  return tech.getByTestId("app-screen").evaluate((canvas, box) => {
    const width = 100;
    const data = (canvas as HTMLCanvasElement).getContext("2d")!.getImageData(box.x, box.y, width, 120).data;
    // Thin glyphs come out grey after JPEG: anything clearly darker than the white page.
    const dark = (x: number, y: number) => {
      const i = 4 * (y * width + x);
      return 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]! < 160;
    };
    const rowDark = (y: number) => [...Array(width - 5).keys()].some((x) => dark(x + 5, y));
    // Wine draws no title bar without a window manager: the menu takes the first 20 px, then come the edit box's
    // border lines (a row each) and the text, the first band of dark rows at least 5 px high.
    for (let top = 18; top < 110; top++) {
      let bottom = top;
      while (bottom < 119 && rowDark(bottom)) bottom++;
      if (bottom - top >= 5) return { x: box.x, y: box.y + Math.round((top + bottom) / 2) };
      top = bottom;
    }
    throw new Error("Pas de texte dans la fenêtre du Bloc-notes");
  }, notepadBox);
}
