import { randomUUID } from "node:crypto";
import { isUuid } from "./uuid";

describe("isUuid", () => {
  test("takes a UUID in either letter case", () => {
    const id = randomUUID();
    expect(isUuid(id)).toBe(true);
    expect(isUuid(id.toUpperCase())).toBe(true);
  });

  test("refuses slugs, short, long, unhyphenated and padded ids", () => {
    const id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";
    for (const value of ["ci-main", "", id.slice(1), `${id}0`, id.replaceAll("-", ""), ` ${id}`, `${id}\n`, id.replace("3", "g")]) {
      expect({ value, uuid: isUuid(value) }).toEqual({ value, uuid: false });
    }
  });
});
