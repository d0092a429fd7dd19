import { AppError } from "../../platform/errors";
import type { Help, HelpInput, HelpsRepository } from "./helps.repository";

export const createHelpsService = (deps: { helps: HelpsRepository; clock: () => Date }) => {
  const { helps, clock } = deps;
  const findOrFail = async (id: number) => {
    const help = await helps.findById(id);
    if (!help) throw new AppError("ERR_NOT_FOUND");
    return help;
  };
  return {
    async list(): Promise<Help[]> {
      return (await helps.listAll()).sort((a, b) => a.id - b.id);
    },
    get: findOrFail,
    create: (input: HelpInput) => helps.create(input, clock()),
    async update(id: number, input: HelpInput): Promise<Help> {
      const help = { ...(await findOrFail(id)), ...input, updatedAt: clock().toISOString() };
      await helps.put(help);
      return help;
    },
    async remove(id: number): Promise<void> {
      await findOrFail(id);
      await helps.remove(id);
    },
  };
};
export type HelpsService = ReturnType<typeof createHelpsService>;
