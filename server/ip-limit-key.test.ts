import { describe, expect, it } from "vitest";
import { ipLimitKey } from "./rate-limit.ts";

describe("ipLimitKey (issue 37 §10)", () => {
  it("keys every address of one IPv6 /64 alike, and other /64s apart", () => {
    const a = ipLimitKey("2001:db8:1:2:aaaa::1");
    expect(ipLimitKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe(a);
    expect(ipLimitKey("2001:0db8:0001:0002::ffff")).toBe(a);
    expect(ipLimitKey("2001:db8:1:3::1")).not.toBe(a);
    expect(a).toBe("2001:db8:1:2::/64");
  });

  it("keeps IPv4 addresses whole, also when written as IPv6", () => {
    expect(ipLimitKey("192.0.2.10")).toBe("192.0.2.10");
    expect(ipLimitKey("::ffff:192.0.2.10")).toBe("192.0.2.10");
    expect(ipLimitKey("192.0.2.11")).not.toBe(ipLimitKey("192.0.2.10"));
  });

  it("gives anything unreadable back as it is", () => {
    expect(ipLimitKey("inconnue")).toBe("inconnue");
    expect(ipLimitKey("")).toBe("");
  });
});
