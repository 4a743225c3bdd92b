// The ESM entry: import { startSandbox } from 'signsandbox'.
import helper from './index.js';

export const { startSandbox, Sandbox, World, SandboxError, binaryPath } = helper;
