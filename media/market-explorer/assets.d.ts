// esbuild bundles CSS imports into explorer.css; TypeScript only needs to know they exist.
declare module '*.css';
