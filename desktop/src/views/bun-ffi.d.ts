/**
 * The part of Bun's `bun:ffi` the window process uses (issue 27): the
 * project has no Bun type package, and this module only exists under Bun
 * (`window-child.ts` and `webview-native.ts` are never imported by Node).
 */
declare module "bun:ffi" {
  /** A native address, as Bun passes it to JavaScript. */
  export type Pointer = number & { readonly __pointer: unique symbol };
  export type FFITypeName =
    | "void"
    | "bool"
    | "u8"
    | "i16"
    | "i32"
    | "u32"
    | "i64"
    | "u64"
    | "usize"
    | "ptr"
    | "pointer"
    | "function"
    | "cstring";
  export const FFIType: Record<FFITypeName, number>;
  /** What a native function accepts: numbers, addresses, typed arrays (passed as their address) or null. */
  export type FFIArgument = number | bigint | boolean | Pointer | ArrayBufferView | null;
  export type FFIFunction = { args: number[]; returns: number };
  export type Library<Names extends string> = {
    symbols: Record<Names, (...args: FFIArgument[]) => unknown>;
    close(): void;
  };
  export function dlopen<Names extends string>(path: string, symbols: Record<Names, FFIFunction>): Library<Names>;
  export function ptr(view: ArrayBufferView | ArrayBuffer, byteOffset?: number): Pointer;
  export class CString extends String {
    constructor(pointer: Pointer, byteOffset?: number, byteLength?: number);
  }
  export class JSCallback {
    constructor(callback: (...args: never[]) => unknown, definition: FFIFunction & { threadsafe?: boolean });
    readonly ptr: Pointer | null;
    close(): void;
  }
}
