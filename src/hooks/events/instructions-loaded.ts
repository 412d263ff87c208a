import { observed } from "./observed.js";

/** InstructionsLoaded: observe-only, once per instruction file a session gives the model. */
export const instructionsLoaded = observed("InstructionsLoaded");
