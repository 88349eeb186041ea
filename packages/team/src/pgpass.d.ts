/** pgpass (a dependency of pg): the libpq password file reader. Calls back with the password, or undefined. */
declare module 'pgpass' {
  function pgpass(connInfo: { host?: string; port?: number | string; database?: string; user?: string }, cb: (password: string | undefined) => void): void;
  export default pgpass;
}
