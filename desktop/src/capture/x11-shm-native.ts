/**
 * MIT-SHM capture through koffi (issue 26, part of `x11-capture-native.ts`):
 * the X server writes the pixels straight into a System V shared memory
 * segment we map, so a 1080p grab is one round trip and no copy. LP64 Linux
 * struct layouts (`unsigned long` and pointers are 8 bytes).
 */
import type { IKoffiLib, Koffi } from "../input/koffi.ts";

/** A shared-memory picture of `width` × `height` px; `data` is the segment itself (no copy). */
export type X11ShmImage = { width: number; height: number; stride: number; data: Uint8Array };

export const ZPIXMAP = 2;
/** Every plane: the request carries 32 bits, and depths stop at 32. */
export const ALL_PLANES = 0xffffffff;
const IPC_PRIVATE = 0;
const IPC_CREAT = 0o1000;
const IPC_RMID = 0;

/** koffi type names are global: a second open reuses the first declaration. */
export function struct(koffi: Koffi, name: string, fields: Record<string, string | ReturnType<Koffi["array"]>>) {
  try {
    return koffi.struct(name, fields);
  } catch {
    return koffi.type(name);
  }
}

/** Xlib's `XImage`, up to its function table. */
export function declareXImage(koffi: Koffi) {
  return struct(koffi, "AtelierCaptureXImage", {
    width: "int",
    height: "int",
    xoffset: "int",
    format: "int",
    data: "void *",
    byte_order: "int",
    bitmap_unit: "int",
    bitmap_bit_order: "int",
    bitmap_pad: "int",
    depth: "int",
    bytes_per_line: "int",
    bits_per_pixel: "int",
    red_mask: "unsigned long",
    green_mask: "unsigned long",
    blue_mask: "unsigned long",
    obdata: "void *",
    f: koffi.array("void *", 6),
  });
}

type XFuncs = { XSync: (...args: unknown[]) => unknown; XDestroyImage: (...args: unknown[]) => unknown };
type KoffiType = ReturnType<Koffi["type"]>;

/**
 * The shared-memory images of one display connection: `create` (null when
 * the server cannot attach the segment: a remote display), `get`, `destroy`,
 * `closeAll`. Null when the extension or a function is missing.
 */
export function bindShm(
  koffi: Koffi,
  xext: IKoffiLib,
  libc: IKoffiLib,
  dpy: unknown,
  root: number,
  screen: number,
  x: XFuncs & { XDefaultVisual: (...args: unknown[]) => unknown; XDefaultDepth: (...args: unknown[]) => unknown },
  XImage: KoffiType,
) {
  const ShmInfo = struct(koffi, "AtelierXShmSegmentInfo", {
    shmseg: "unsigned long",
    shmid: "int",
    shmaddr: "void *",
    readOnly: "int",
  });

  let s;
  try {
    s = {
      XShmQueryExtension: xext.func("int XShmQueryExtension(void *dpy)"),
      XShmCreateImage: xext.func(
        "void *XShmCreateImage(void *dpy, void *visual, unsigned int depth, int format, void *data, " +
          "void *shminfo, unsigned int width, unsigned int height)",
      ),
      XShmAttach: xext.func("int XShmAttach(void *dpy, void *shminfo)"),
      XShmDetach: xext.func("int XShmDetach(void *dpy, void *shminfo)"),
      XShmGetImage: xext.func(
        "int XShmGetImage(void *dpy, unsigned long d, void *image, int x, int y, unsigned long planes)",
      ),
      shmget: libc.func("int shmget(int key, size_t size, int flags)"),
      shmat: libc.func("void *shmat(int id, void *address, int flags)"),
      shmdt: libc.func("int shmdt(void *address)"),
      shmctl: libc.func("int shmctl(int id, int command, void *buffer)"),
    };
  } catch {
    return null;
  }
  if (!s.XShmQueryExtension(dpy)) return null;
  const failed = 0xffffffffffffffffn; // (void *) -1, shmat's failure
  type Native = { ximage: unknown; info: unknown; address: unknown };
  const natives = new Map<X11ShmImage, Native>();

  const release = (native: Native, attached: boolean) => {
    if (attached) {
      s.XShmDetach(dpy, native.info);
      x.XSync(dpy, 0);
    }
    x.XDestroyImage(native.ximage);
    if (native.address) s.shmdt(native.address);
    koffi.free(native.info);
  };

  const api = {
    create(width: number, height: number): X11ShmImage | null {
      const info: unknown = koffi.alloc(ShmInfo, 1);
      const visual = x.XDefaultVisual(dpy, screen);
      const depth = x.XDefaultDepth(dpy, screen);
      const ximage: unknown = s.XShmCreateImage(dpy, visual, depth, ZPIXMAP, null, info, width, height);
      if (!ximage) {
        koffi.free(info);
        return null;
      }
      const stride = (koffi.decode(ximage, XImage) as { bytes_per_line: number }).bytes_per_line;
      const native: Native = { ximage, info, address: null };
      const id: number = s.shmget(IPC_PRIVATE, stride * height, IPC_CREAT | 0o600);
      if (id < 0) {
        release(native, false);
        return null;
      }
      const address: unknown = s.shmat(id, null, 0);
      if (!address || koffi.address(address) === failed) {
        s.shmctl(id, IPC_RMID, null);
        release(native, false);
        return null;
      }
      native.address = address;
      koffi.encode(info, ShmInfo, { shmseg: 0, shmid: id, shmaddr: address, readOnly: 0 });
      koffi.encode(ximage, koffi.offsetof(XImage, "data"), "void *", address);
      s.XShmAttach(dpy, info);
      x.XSync(dpy, 0);
      // Marked for removal once both sides are attached: the kernel frees it even if the app is killed.
      s.shmctl(id, IPC_RMID, null);
      const image: X11ShmImage = {
        width,
        height,
        stride,
        data: new Uint8Array(koffi.view(address, stride * height)),
      };
      natives.set(image, native);
      // A remote server cannot attach the segment: its error was ignored, and the first read fails.
      if (!s.XShmGetImage(dpy, root, ximage, 0, 0, ALL_PLANES)) {
        api.destroy(image);
        return null;
      }
      return image;
    },
    get(image: X11ShmImage, left: number, top: number): boolean {
      const native = natives.get(image);
      return native ? s.XShmGetImage(dpy, root, native.ximage, left, top, ALL_PLANES) !== 0 : false;
    },
    destroy(image: X11ShmImage) {
      const native = natives.get(image);
      if (!native) return;
      natives.delete(image);
      release(native, true);
    },
    closeAll() {
      for (const image of [...natives.keys()]) api.destroy(image);
    },
  };
  return api;
}
