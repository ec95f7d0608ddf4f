/** Repository instructions (AGENTS.md, copilot-instructions, applyTo files): discovery and the system-message section. */
export { loadInstructions, type LoadedInstructions } from './load';
export { discoverInstructions, MAX_INSTRUCTIONS_BYTES, AGENTS_FILE, COPILOT_FILE, INSTRUCTIONS_DIR, type Discovered, type DiscoverOptions, type InstructionKind, type InstructionSource, type InstructionsReader } from './discover';
export { buildInstructionsSection, instructionsTokenBudget, PREAMBLE, type InstructionCut, type InstructionsSection } from './sections';
export { applyToMatcher, splitApplyTo, type PathMatcher } from './applyTo';
export { parseFrontMatter, type FrontMatter } from './frontMatter';
export { loadFolderInstructions, type FolderInput, type FolderInstructions, type FolderLoadOptions, type UsedSource } from './folders';
