/**
 * Renders rows as an aligned text table for stdout, headers first.
 * @example
 * renderTable(["NAME", "CHAIN ID"], [["mainnet", "1"]]) // "NAME     CHAIN ID\nmainnet  1\n"
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column])))
      .join("  ")
      .trimEnd();
  return `${[headers, ...rows].map(line).join("\n")}\n`;
}
