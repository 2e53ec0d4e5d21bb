// A command's help examples, one line each in the command file: what it shows, and the
// arguments after `nrictl <command>`.

export interface CommandExample {
  description: string;
  command: string;
}

export function example(description: string, args = ''): CommandExample {
  return { description, command: `<%= config.bin %> <%= command.id %>${args ? ` ${args}` : ''}` };
}
