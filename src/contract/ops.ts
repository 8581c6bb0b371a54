import { Type } from 'typebox';

/** Operational routes at the root (EXTENSIONS.md sections 7, 11 and 12). */

export const HealthSchema = Type.Object({ status: Type.Literal('ok') });

const Role = Type.Union([Type.Literal('leader'), Type.Literal('follower')]);
/** This process's random id (a restart gets a new one), as its log lines and the engine lease name it. */
const NodeId = Type.String({ description: "this process's random node id, as in its log lines and the engine lease" });
export const ReadySchema = Type.Object({ status: Type.Literal('ready'), role: Role, node: NodeId });
/** Section 12's body, inside the error body of section 9 that every non-2xx carries. */
export const NotReadySchema = Type.Object({ statusCode: Type.Integer(), error: Type.String(), code: Type.String(), message: Type.String(), status: Type.Literal('not-ready'), role: Role, node: NodeId });

/** Prometheus text. */
export const MetricsText = Type.String();
