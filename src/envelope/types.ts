/**
 * The dispatch envelopes' types. Each is inferred from its zod schema in `./zod.ts`, the single source of the
 * shape: the runtime parser, these types and the JSON Schemas in `schemas/` (`npm run schemas`) all come from
 * it. Field documentation lives there, as `.describe()` text, and reaches the generated schemas.
 */

import type { z } from "zod";
import type * as S from "./zod.js";

export const PACKET_VERSION = "agent-packet/v1";
export const RESULT_VERSION = "agent-result/v1";

export type Sha256 = z.infer<typeof S.Sha256Schema>;
export type RunId = z.infer<typeof S.RunIdSchema>;
export type RepoPath = z.infer<typeof S.RepoPathSchema>;
export type Timestamp = z.infer<typeof S.TimestampSchema>;
export type Count = number;
export type ProcessExitCode = number;
export type Phase = z.infer<typeof S.PhaseSchema>;
export type Baseline = z.infer<typeof S.BaselineSchema>;
export type PacketInput = z.infer<typeof S.PacketInputSchema>;
export type PacketScope = z.infer<typeof S.PacketScopeSchema>;
export type PacketBudgets = z.infer<typeof S.PacketBudgetsSchema>;
export type AgentPacket = z.infer<typeof S.AgentPacketSchema>;
export type ResultStatus = z.infer<typeof S.ResultStatusSchema>;
export type ResultBudget = z.infer<typeof S.ResultBudgetSchema>;
export type RepoWrite = z.infer<typeof S.RepoWriteSchema>;
export type RepoWriteChange = z.infer<typeof S.RepoWriteChangeSchema>;
export type RepoWriteDelete = z.infer<typeof S.RepoWriteDeleteSchema>;
export type ScratchWrite = z.infer<typeof S.ScratchWriteSchema>;
export type SideEffects = z.infer<typeof S.SideEffectsSchema>;
export type EvidenceRef = z.infer<typeof S.EvidenceRefSchema>;
export type EvidenceDossier = z.infer<typeof S.EvidenceDossierSchema>;
export type PlanSlice = z.infer<typeof S.PlanSliceSchema>;
export type PlanCandidate = z.infer<typeof S.PlanCandidateSchema>;
export type ProofReport = z.infer<typeof S.ProofReportSchema>;
export type ReviewFindings = z.infer<typeof S.ReviewFindingsSchema>;
export type WrightReport = z.infer<typeof S.WrightReportSchema>;
export type Payload = z.infer<typeof S.PayloadSchema>;
export type Gate = z.infer<typeof S.GateSchema>;
export type DecisionStood = z.infer<typeof S.DecisionStoodSchema>;
export type Escalation = z.infer<typeof S.EscalationSchema>;
export type AgentResult = z.infer<typeof S.AgentResultSchema>;
/** A result as written, before parsing fills in what it may leave out (empty lists, a null escalation). */
export type AgentResultInput = z.input<typeof S.AgentResultSchema>;
