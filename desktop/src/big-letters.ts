/**
 * The session code in large letters for the terminal (issue 26: the customer
 * reads it out over the phone, often from across the room). A 5 × 5 font of
 * the session code alphabet (`SESSION_CODE_ALPHABET`: no letter that reads
 * like another), drawn with `#` so that every console shows it, whatever its
 * code page or font.
 */
const FONT: Record<string, readonly string[]> = {
  A: [" ### ", "#   #", "#####", "#   #", "#   #"],
  C: [" ####", "#    ", "#    ", "#    ", " ####"],
  D: ["#### ", "#   #", "#   #", "#   #", "#### "],
  E: ["#####", "#    ", "#### ", "#    ", "#####"],
  F: ["#####", "#    ", "#### ", "#    ", "#    "],
  G: [" ####", "#    ", "#  ##", "#   #", " ### "],
  H: ["#   #", "#   #", "#####", "#   #", "#   #"],
  J: ["  ###", "   # ", "   # ", "#  # ", " ##  "],
  K: ["#   #", "#  # ", "###  ", "#  # ", "#   #"],
  M: ["#   #", "## ##", "# # #", "#   #", "#   #"],
  N: ["#   #", "##  #", "# # #", "#  ##", "#   #"],
  P: ["#### ", "#   #", "#### ", "#    ", "#    "],
  Q: [" ### ", "#   #", "# # #", "#  # ", " ## #"],
  R: ["#### ", "#   #", "#### ", "#  # ", "#   #"],
  T: ["#####", "  #  ", "  #  ", "  #  ", "  #  "],
  U: ["#   #", "#   #", "#   #", "#   #", " ### "],
  V: ["#   #", "#   #", "#   #", " # # ", "  #  "],
  W: ["#   #", "#   #", "# # #", "## ##", "#   #"],
  X: ["#   #", " # # ", "  #  ", " # # ", "#   #"],
  Y: ["#   #", " # # ", "  #  ", "  #  ", "  #  "],
  "3": ["#### ", "    #", " ### ", "    #", "#### "],
  "4": ["#   #", "#   #", "#####", "    #", "    #"],
  "6": [" ### ", "#    ", "#### ", "#   #", " ### "],
  "7": ["#####", "    #", "   # ", "  #  ", "  #  "],
  "9": [" ### ", "#   #", " ####", "    #", " ### "],
};

/** Rows of a glyph: 5. */
export const BIG_LETTER_ROWS = 5;

/**
 * `text` drawn in large letters, 5 lines, letters 2 columns apart and a wider
 * gap every 3 symbols (the way the code is read: "ACD EFG"). A symbol outside
 * the font is drawn as itself in the middle row. @returns the lines, without trailing spaces.
 */
export function bigLetters(text: string): string[] {
  const rows = Array.from({ length: BIG_LETTER_ROWS }, () => "");
  [...text.toUpperCase()].forEach((symbol, index) => {
    const glyph = FONT[symbol] ?? ["     ", "     ", `  ${symbol}  `, "     ", "     "];
    const gap = index === 0 ? "" : index % 3 === 0 ? "    " : "  ";
    for (let row = 0; row < BIG_LETTER_ROWS; row += 1) rows[row] += gap + glyph[row];
  });
  return rows.map((row) => row.trimEnd());
}

/** Width of `bigLetters(text)` in columns. */
export function bigLettersWidth(text: string): number {
  const count = [...text].length;
  if (count === 0) return 0;
  return count * 5 + (count - 1) * 2 + Math.floor((count - 1) / 3) * 2;
}
