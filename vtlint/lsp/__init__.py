"""The language server used by the VS Code extension: `vtlint lsp` (pygls, stdio)."""
