// Extension entry (being written).
export function activate(): void {}
export function deactivate(): void {}
