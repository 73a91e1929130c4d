// PVE's own formats, shared by the API client, the engine and the simulator.
export { PveFormatError } from "./errors.js";
export { formatResize, formatSize, GIB, parseResize, parseSize, parseSizeBytes, type ResizeRequest, tryParseSize } from "./size.js";
export { formatUpid, isUpid, parseUpid, type Upid } from "./upid.js";
export { isValidTag, normaliseTags, parseTags, printTags, sameTags, splitList, type TagNormalisation } from "./tags.js";
export {
  type ParseOptions,
  parsePropertyString,
  PropertyStringError,
  type PropertyValue,
  type PropertyValues,
  printPropertyString,
} from "./property-string.js";
export { defaultKeyOf, parsePveBoolean } from "./property-syntax.js";
export { addError, checkProp, type Errors } from "./check.js";
export { parseVolumeId, type VolumeContent, type VolumeId, volumeIdProblem } from "./volume-id.js";
export { checkedCodeFormats, FormatViolation } from "./code-formats.js";
export {
  type ParamValue,
  type RawParam,
  type ValidateOptions,
  type ValidationResult,
  type ValueResult,
  validateParam,
  validateParams,
  validateValue,
} from "./validate.js";
export { type DriveBus, driveBusOf, isDriveSlot, isVmDriveKey } from "./drive-slots.js";
export { type GuestKind, guestConfigEndpoint, guestKeySchema, guestSubSchema, subSchemaOf } from "./guest-schema.js";
export {
  type BootOrder,
  canonicalConfigValue,
  isCdrom,
  isCloudinitDrive,
  isDiskKey,
  isNetKey,
  isUnusedKey,
  macOf,
  parseAgent,
  parseBoot,
  parseDrive,
  parseIpconfig,
  parseNet,
  parseNewVolume,
  parseStartup,
  printBoot,
  printDrive,
  printIpconfig,
  printNet,
  printStartup,
  type StartupOrder,
  storageOfVolume,
  volumeOf,
} from "./config.js";
export {
  type ConfigSection,
  decodeConfigText,
  encodeConfigText,
  type GuestConfigFile,
  type ParseConfigOptions,
  parseConfigFile,
  storedDescription,
  printConfigFile,
} from "./config-file.js";
export { type CalendarEvent, CalendarEventError, calendarEventProblem, nextCalendarEvent, parseCalendarEvent } from "./calendar-event.js";
export { notesTemplateProblem } from "./notes-template.js";
export { BUILTIN_ROLES, isAclPath, isBuiltinRole, isPrivilege, PVE_PRIVILEGES, REMOVED_PRIVILEGES, ROLE_ID_RE } from "./privileges.js";
export { DRIVE_PRIVILEGES, type DriveCheck, type DriveMedia, driveMedia, drivePrivileges } from "./drive-privileges.js";
export { secretFileHolds } from "./token-secret.js";
