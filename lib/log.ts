// Structured one-line JSON logs. Never pass secrets, keys, tokens or raw Authorization headers here.
type Level = "info" | "warn" | "error";

function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  if (level === "info") console.log(line);
  else console.error(line);
}

export const log = {
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};

export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.message, name: error.name, stack: error.stack };
  return { error: String(error) };
}
