import { describe, expect, it } from "vitest";
import { stripModulepreload } from "./strip-modulepreload.ts";

describe("stripModulepreload", () => {
  it("removes modulepreload links and keeps every script and stylesheet", () => {
    const html =
      '<head><link rel="modulepreload" href="/assets/a.js"/><link rel="modulepreload" href="/assets/b.js" crossorigin="anonymous"/>' +
      '<link rel="stylesheet" href="/assets/c.css"/></head><body><script type="module">import("/assets/a.js")</script></body>';
    expect(stripModulepreload(html)).toBe(
      '<head><link rel="stylesheet" href="/assets/c.css"/></head><body><script type="module">import("/assets/a.js")</script></body>',
    );
  });
});
