export function findLavapipe(): string | null;
