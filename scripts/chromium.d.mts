export function findChromium(): string | null;
export function chromiumArgs(): string[];
