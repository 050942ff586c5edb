// Language server entry (being written).
export {};
