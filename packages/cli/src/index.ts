export { main, buildProgram } from './main.js';
export { CliError } from './errors.js';
