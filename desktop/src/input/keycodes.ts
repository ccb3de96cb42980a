/**
 * Physical keys (issue 15, "Injection"): `KeyboardEvent.code` → the key's
 * number on each system. The technician's browser sends the physical key, so
 * the customer's own layout decides the character a key gives and shortcuts
 * (Ctrl+C…) follow the key, as when the customer presses it.
 *
 * Columns, per the W3C "UI Events KeyboardEvent code" tables and Chromium's
 * keycode converter:
 * - `evdev`: Linux input code; the X11 keycode is evdev + 8 on every X server
 *   using the evdev/libinput keycodes (Xorg since 2009, XWayland, Xvfb).
 * - `win`: PC/AT set 1 scan code for `SendInput` `KEYEVENTF_SCANCODE`;
 *   0xE0xx means "extended" (`KEYEVENTF_EXTENDEDKEY` + the low byte).
 * - `mac`: macOS virtual key code (`kVK_…`, Events.h) for `CGEventCreateKeyboardEvent`.
 * `-1` = the key does not exist on that system.
 */

/** One key on the three systems (see the module comment for the columns). */
export type KeyNumbers = { evdev: number; win: number; mac: number };

// [code, evdev, win, mac]: kept as rows so each key reads on one line.
const ROWS: [string, number, number, number][] = [
  ["Escape", 1, 0x01, 0x35],
  ["Digit1", 2, 0x02, 0x12],
  ["Digit2", 3, 0x03, 0x13],
  ["Digit3", 4, 0x04, 0x14],
  ["Digit4", 5, 0x05, 0x15],
  ["Digit5", 6, 0x06, 0x17],
  ["Digit6", 7, 0x07, 0x16],
  ["Digit7", 8, 0x08, 0x1a],
  ["Digit8", 9, 0x09, 0x1c],
  ["Digit9", 10, 0x0a, 0x19],
  ["Digit0", 11, 0x0b, 0x1d],
  ["Minus", 12, 0x0c, 0x1b],
  ["Equal", 13, 0x0d, 0x18],
  ["Backspace", 14, 0x0e, 0x33],
  ["Tab", 15, 0x0f, 0x30],
  ["KeyQ", 16, 0x10, 0x0c],
  ["KeyW", 17, 0x11, 0x0d],
  ["KeyE", 18, 0x12, 0x0e],
  ["KeyR", 19, 0x13, 0x0f],
  ["KeyT", 20, 0x14, 0x11],
  ["KeyY", 21, 0x15, 0x10],
  ["KeyU", 22, 0x16, 0x20],
  ["KeyI", 23, 0x17, 0x22],
  ["KeyO", 24, 0x18, 0x1f],
  ["KeyP", 25, 0x19, 0x23],
  ["BracketLeft", 26, 0x1a, 0x21],
  ["BracketRight", 27, 0x1b, 0x1e],
  ["Enter", 28, 0x1c, 0x24],
  ["ControlLeft", 29, 0x1d, 0x3b],
  ["KeyA", 30, 0x1e, 0x00],
  ["KeyS", 31, 0x1f, 0x01],
  ["KeyD", 32, 0x20, 0x02],
  ["KeyF", 33, 0x21, 0x03],
  ["KeyG", 34, 0x22, 0x05],
  ["KeyH", 35, 0x23, 0x04],
  ["KeyJ", 36, 0x24, 0x26],
  ["KeyK", 37, 0x25, 0x28],
  ["KeyL", 38, 0x26, 0x25],
  ["Semicolon", 39, 0x27, 0x29],
  ["Quote", 40, 0x28, 0x27],
  ["Backquote", 41, 0x29, 0x32],
  ["ShiftLeft", 42, 0x2a, 0x38],
  ["Backslash", 43, 0x2b, 0x2a],
  ["KeyZ", 44, 0x2c, 0x06],
  ["KeyX", 45, 0x2d, 0x07],
  ["KeyC", 46, 0x2e, 0x08],
  ["KeyV", 47, 0x2f, 0x09],
  ["KeyB", 48, 0x30, 0x0b],
  ["KeyN", 49, 0x31, 0x2d],
  ["KeyM", 50, 0x32, 0x2e],
  ["Comma", 51, 0x33, 0x2b],
  ["Period", 52, 0x34, 0x2f],
  ["Slash", 53, 0x35, 0x2c],
  ["ShiftRight", 54, 0x36, 0x3c],
  ["NumpadMultiply", 55, 0x37, 0x43],
  ["AltLeft", 56, 0x38, 0x3a],
  ["Space", 57, 0x39, 0x31],
  ["CapsLock", 58, 0x3a, 0x39],
  ["F1", 59, 0x3b, 0x7a],
  ["F2", 60, 0x3c, 0x78],
  ["F3", 61, 0x3d, 0x63],
  ["F4", 62, 0x3e, 0x76],
  ["F5", 63, 0x3f, 0x60],
  ["F6", 64, 0x40, 0x61],
  ["F7", 65, 0x41, 0x62],
  ["F8", 66, 0x42, 0x64],
  ["F9", 67, 0x43, 0x65],
  ["F10", 68, 0x44, 0x6d],
  // NumLock is the extended 0x45 for SendInput (plain 0x45 is Pause's first byte); "Clear" on a Mac keypad.
  ["NumLock", 69, 0xe045, 0x47],
  ["ScrollLock", 70, 0x46, -1],
  ["Numpad7", 71, 0x47, 0x59],
  ["Numpad8", 72, 0x48, 0x5b],
  ["Numpad9", 73, 0x49, 0x5c],
  ["NumpadSubtract", 74, 0x4a, 0x4e],
  ["Numpad4", 75, 0x4b, 0x56],
  ["Numpad5", 76, 0x4c, 0x57],
  ["Numpad6", 77, 0x4d, 0x58],
  ["NumpadAdd", 78, 0x4e, 0x45],
  ["Numpad1", 79, 0x4f, 0x53],
  ["Numpad2", 80, 0x50, 0x54],
  ["Numpad3", 81, 0x51, 0x55],
  ["Numpad0", 82, 0x52, 0x52],
  ["NumpadDecimal", 83, 0x53, 0x41],
  // The "<>" key of French and other ISO keyboards.
  ["IntlBackslash", 86, 0x56, 0x0a],
  ["F11", 87, 0x57, 0x67],
  ["F12", 88, 0x58, 0x6f],
  ["IntlRo", 89, 0x73, 0x5e],
  ["Convert", 92, 0x79, -1],
  ["KanaMode", 93, 0x70, 0x68],
  ["NonConvert", 94, 0x7b, 0x66],
  ["NumpadEnter", 96, 0xe01c, 0x4c],
  ["ControlRight", 97, 0xe01d, 0x3e],
  ["NumpadDivide", 98, 0xe035, 0x4b],
  ["PrintScreen", 99, 0xe037, -1],
  ["AltRight", 100, 0xe038, 0x3d],
  ["Home", 102, 0xe047, 0x73],
  ["ArrowUp", 103, 0xe048, 0x7e],
  ["PageUp", 104, 0xe049, 0x74],
  ["ArrowLeft", 105, 0xe04b, 0x7b],
  ["ArrowRight", 106, 0xe04d, 0x7c],
  ["End", 107, 0xe04f, 0x77],
  ["ArrowDown", 108, 0xe050, 0x7d],
  ["PageDown", 109, 0xe051, 0x79],
  // Mac keyboards have no Insert: its place holds Help (0x72), which apps treat alike.
  ["Insert", 110, 0xe052, 0x72],
  ["Delete", 111, 0xe053, 0x75],
  ["AudioVolumeMute", 113, 0xe020, 0x4a],
  ["AudioVolumeDown", 114, 0xe02e, 0x49],
  ["AudioVolumeUp", 115, 0xe030, 0x48],
  ["NumpadEqual", 117, 0x59, 0x51],
  // Pause has no usable scan code (E1 1D 45): the Windows backend sends VK_PAUSE instead.
  ["Pause", 119, -1, -1],
  ["NumpadComma", 121, 0x7e, 0x5f],
  ["IntlYen", 124, 0x7d, 0x5d],
  ["MetaLeft", 125, 0xe05b, 0x37],
  ["MetaRight", 126, 0xe05c, 0x36],
  ["ContextMenu", 127, 0xe05d, 0x6e],
  ["BrowserBack", 158, 0xe06a, -1],
  ["BrowserForward", 159, 0xe069, -1],
  ["MediaTrackNext", 163, 0xe019, -1],
  ["MediaPlayPause", 164, 0xe022, -1],
  ["MediaTrackPrevious", 165, 0xe010, -1],
  ["MediaStop", 166, 0xe024, -1],
  ["BrowserRefresh", 173, 0xe067, -1],
  ["F13", 183, 0x64, 0x69],
  ["F14", 184, 0x65, 0x6b],
  ["F15", 185, 0x66, 0x71],
  ["F16", 186, 0x67, 0x6a],
  ["F17", 187, 0x68, 0x40],
  ["F18", 188, 0x69, 0x4f],
  ["F19", 189, 0x6a, 0x50],
  ["F20", 190, 0x6b, 0x5a],
  ["F21", 191, 0x6c, -1],
  ["F22", 192, 0x6d, -1],
  ["F23", 193, 0x6e, -1],
  ["F24", 194, 0x76, -1],
];

const TABLE = new Map<string, KeyNumbers>(ROWS.map(([code, evdev, win, mac]) => [code, { evdev, win, mac }]));

/** The key's numbers for a `KeyboardEvent.code`, or undefined for a code this table does not know. */
export function keyNumbers(code: string): KeyNumbers | undefined {
  return TABLE.get(code);
}

/** Every code the table knows (tests and the help text). */
export function knownKeyCodes(): string[] {
  return [...TABLE.keys()];
}

/** The four modifier families; each side ("Left"/"Right") counts. */
export const SHIFT_CODES = ["ShiftLeft", "ShiftRight"] as const;
export const CONTROL_CODES = ["ControlLeft", "ControlRight"] as const;
export const ALT_CODES = ["AltLeft", "AltRight"] as const;
export const META_CODES = ["MetaLeft", "MetaRight"] as const;

/** Whether `code` is a modifier key (Shift, Control, Alt, Meta/Windows/Command, either side). */
export function isModifierCode(code: string): boolean {
  return /^(Shift|Control|Alt|Meta)(Left|Right)$/.test(code);
}
