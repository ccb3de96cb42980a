/**
 * A test-environment shim for Wine older than 9 (issue 36): Bun's Windows runtime imports
 * `bcryptprimitives.dll!ProcessPrng`, which Windows 10 and later have and Wine 8 lacks, so the `.exe`
 * exits at once with code 53. This writes a DLL of that name whose only export, `ProcessPrng`, is
 * forwarded to `advapi32.SystemFunction036` (`RtlGenRandom`: same arguments, a buffer and its length in
 * bytes, and the same meaning of its BOOL). Put in the Wine prefix's `system32`, it lets the shipped
 * `.exe` start unchanged. It holds no code: a PE32+ image with one section holding the export directory,
 * whose function address points inside that directory, at the forwarder's text (PE/COFF specification,
 * « Export Address Table »). Never shipped: a real Windows has the function.
 */

const FILE_ALIGNMENT = 0x200;
const SECTION_RVA = 0x1000;
const SECTION_ALIGNMENT = 0x1000;

/**
 * The DLL's bytes (1 KB): `bcryptprimitives.dll` exporting `ProcessPrng` → `advapi32.SystemFunction036`.
 * `exports` may name other forwards (name → "dll.function"), for another missing function.
 */
export function prngShimDll(
  exports: Readonly<Record<string, string>> = { ProcessPrng: "advapi32.SystemFunction036" },
): Buffer {
  const names = Object.keys(exports).sort(); // the loader binary-searches the names: sorted
  // The export directory's data, laid out from SECTION_RVA: directory, tables, then strings.
  const directorySize = 40;
  const functionsAt = directorySize;
  const namesAt = functionsAt + 4 * names.length;
  const ordinalsAt = namesAt + 4 * names.length;
  let stringsAt = ordinalsAt + 2 * names.length;
  const strings: { at: number; text: string }[] = [];
  const addString = (text: string) => {
    const entry = { at: stringsAt, text };
    strings.push(entry);
    stringsAt += Buffer.byteLength(text) + 1;
    return SECTION_RVA + entry.at;
  };
  const dllName = addString("bcryptprimitives.dll");
  const nameRvas = names.map(addString);
  const forwardRvas = names.map((name) => addString(exports[name]!));
  const exportSize = stringsAt;

  const section = Buffer.alloc(Math.ceil(exportSize / FILE_ALIGNMENT) * FILE_ALIGNMENT);
  section.writeUInt32LE(dllName, 12);
  section.writeUInt32LE(1, 16); // ordinal base
  section.writeUInt32LE(names.length, 20); // functions
  section.writeUInt32LE(names.length, 24); // names
  section.writeUInt32LE(SECTION_RVA + functionsAt, 28);
  section.writeUInt32LE(SECTION_RVA + namesAt, 32);
  section.writeUInt32LE(SECTION_RVA + ordinalsAt, 36);
  names.forEach((_, index) => {
    section.writeUInt32LE(forwardRvas[index]!, functionsAt + 4 * index);
    section.writeUInt32LE(nameRvas[index]!, namesAt + 4 * index);
    section.writeUInt16LE(index, ordinalsAt + 2 * index);
  });
  for (const { at, text } of strings) section.write(text, at, "latin1");

  const headers = Buffer.alloc(FILE_ALIGNMENT);
  headers.write("MZ", 0, "latin1");
  headers.writeUInt32LE(0x40, 0x3c); // e_lfanew
  headers.write("PE\0\0", 0x40, "latin1");
  const coff = 0x44;
  headers.writeUInt16LE(0x8664, coff); // x86-64
  headers.writeUInt16LE(1, coff + 2); // one section
  headers.writeUInt16LE(240, coff + 16); // size of the PE32+ optional header
  headers.writeUInt16LE(0x2022, coff + 18); // executable image, large-address aware, DLL
  const optional = coff + 20;
  headers.writeUInt16LE(0x20b, optional); // PE32+
  headers.writeUInt32LE(section.length, optional + 8); // initialized data
  headers.writeUInt32LE(0, optional + 16); // no entry point: no code at all
  headers.writeUInt32LE(SECTION_RVA, optional + 20); // base of code
  headers.writeBigUInt64LE(0x7ff_e000_0000n, optional + 24); // image base (relocatable: nothing to fix)
  headers.writeUInt32LE(SECTION_ALIGNMENT, optional + 32);
  headers.writeUInt32LE(FILE_ALIGNMENT, optional + 36);
  headers.writeUInt16LE(6, optional + 40); // OS 6.0
  headers.writeUInt16LE(6, optional + 48); // subsystem 6.0
  const imageSize = SECTION_RVA + Math.ceil(section.length / SECTION_ALIGNMENT) * SECTION_ALIGNMENT;
  headers.writeUInt32LE(imageSize, optional + 56);
  headers.writeUInt32LE(FILE_ALIGNMENT, optional + 60); // size of headers
  headers.writeUInt16LE(3, optional + 68); // console subsystem (unused by a DLL)
  headers.writeUInt16LE(0x0160, optional + 70); // dynamic base, NX, high-entropy VA
  headers.writeBigUInt64LE(0x100000n, optional + 72); // stack reserve
  headers.writeBigUInt64LE(0x1000n, optional + 80); // stack commit
  headers.writeBigUInt64LE(0x100000n, optional + 88); // heap reserve
  headers.writeBigUInt64LE(0x1000n, optional + 96); // heap commit
  headers.writeUInt32LE(16, optional + 108); // data directories
  headers.writeUInt32LE(SECTION_RVA, optional + 112); // [0] export directory
  headers.writeUInt32LE(exportSize, optional + 116);
  const sectionHeader = optional + 240;
  headers.write(".rdata", sectionHeader, "latin1");
  headers.writeUInt32LE(exportSize, sectionHeader + 8); // virtual size
  headers.writeUInt32LE(SECTION_RVA, sectionHeader + 12);
  headers.writeUInt32LE(section.length, sectionHeader + 16); // raw size
  headers.writeUInt32LE(FILE_ALIGNMENT, sectionHeader + 20); // raw offset
  headers.writeUInt32LE(0x40000040, sectionHeader + 36); // initialized data, readable
  return Buffer.concat([headers, section]);
}
