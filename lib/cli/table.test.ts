import { renderTable } from "./table";

describe("renderTable", () => {
  it("aligns columns to the widest cell and leaves no trailing spaces", () => {
    expect(
      renderTable(
        ["NAME", "CHAIN ID", "URL"],
        [
          ["mainnet", "1", "http://a"],
          ["base", "84530", ""],
        ],
      ),
    ).toBe(["NAME     CHAIN ID  URL", "mainnet  1         http://a", "base     84530", ""].join("\n"));
  });
});
