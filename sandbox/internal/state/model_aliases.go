package state

// The row types and their vocabulary moved to package model; these aliases
// keep the packages that still name them state.X building until they are
// renamed to model.X (the last, mechanical commit of the move removes
// this file).

import "github.com/signsandbox/signsandbox/sandbox/internal/model"

type APIApp = model.APIApp
type APIAppOAuth = model.APIAppOAuth
type APIKey = model.APIKey

var AccessID = model.AccessID

type Account = model.Account
type AccountSettings = model.AccountSettings
type Attachment = model.Attachment
type AuditEntry = model.AuditEntry
type AutoReminderConfig = model.AutoReminderConfig
type BulkSendFailure = model.BulkSendFailure
type BulkSendItem = model.BulkSendItem
type BulkSendJob = model.BulkSendJob
type Config = model.Config
type CustomField = model.CustomField

const DefaultLogLimit = model.DefaultLogLimit

type DefaultOn = model.DefaultOn

const DefaultTestValuesDelay = model.DefaultTestValuesDelay

type Delivery = model.Delivery
type DeliveryAttempt = model.DeliveryAttempt

const DeliveryDelivered = model.DeliveryDelivered
const DeliveryFailed = model.DeliveryFailed
const DeliveryPending = model.DeliveryPending

type Document = model.Document
type DocumentPDFField = model.DocumentPDFField
type DocumentTextTag = model.DocumentTextTag
type DraftOptions = model.DraftOptions

const DraftRequestSignature = model.DraftRequestSignature
const DraftSendDocument = model.DraftSendDocument

type Duration = model.Duration
type Email = model.Email
type EmailBrand = model.EmailBrand
type Event = model.Event

const EventNoTarget = model.EventNoTarget

type Fax = model.Fax

const FaxErrorBadDestination = model.FaxErrorBadDestination
const FaxErrorBusy = model.FaxErrorBusy
const FaxErrorCouldNotFax = model.FaxErrorCouldNotFax
const FaxErrorDisconnected = model.FaxErrorDisconnected
const FaxErrorNoAnswer = model.FaxErrorNoAnswer
const FaxErrorUnknown = model.FaxErrorUnknown

type FaxLine = model.FaxLine

const FaxSuccess = model.FaxSuccess
const FaxTransmitting = model.FaxTransmitting

type FieldGroup = model.FieldGroup
type FieldKeys = model.FieldKeys
type FieldRule = model.FieldRule
type FileSet = model.FileSet

var FileSetID = model.FileSetID

const FileSetKindRequest = model.FileSetKindRequest

type FileSetRare = model.FileSetRare
type FileURL = model.FileURL
type FormField = model.FormField
type Job = model.Job

var JobID = model.JobID

type LinkSecret = model.LinkSecret

const MaxAutoReminderDelay = model.MaxAutoReminderDelay
const MaxAutoReminders = model.MaxAutoReminders

type OAuthCode = model.OAuthCode
type OAuthToken = model.OAuthToken
type Page = model.Page

const PhaseCanceled = model.PhaseCanceled
const PhaseComplete = model.PhaseComplete
const PhaseDeclined = model.PhaseDeclined
const PhaseError = model.PhaseError
const PhaseExpired = model.PhaseExpired
const PhaseOnHold = model.PhaseOnHold
const PhaseProcessing = model.PhaseProcessing
const PhaseSent = model.PhaseSent

var QueuePrefix = model.QueuePrefix

type Quotas = model.Quotas
type RateLimitConfig = model.RateLimitConfig
type Recipe = model.Recipe
type Report = model.Report
type ResponseValue = model.ResponseValue
type RuleAction = model.RuleAction
type RuleTrigger = model.RuleTrigger
type Scenario = model.Scenario
type ScenarioMark = model.ScenarioMark
type ScenarioRule = model.ScenarioRule

const SigAwaiting = model.SigAwaiting
const SigDeclined = model.SigDeclined
const SigErrorComponentPosition = model.SigErrorComponentPosition
const SigErrorFile = model.SigErrorFile
const SigErrorInvalidEmail = model.SigErrorInvalidEmail
const SigErrorUnknown = model.SigErrorUnknown
const SigExpired = model.SigExpired
const SigOnHold = model.SigOnHold
const SigOnHoldByRequester = model.SigOnHoldByRequester
const SigSigned = model.SigSigned
const SigSuccess = model.SigSuccess

type SignURL = model.SignURL
type Signature = model.Signature
type SignatureRequest = model.SignatureRequest
type SignatureRequestAccess = model.SignatureRequestAccess
type SigningOptions = model.SigningOptions
type Team = model.Team
type TeamInvite = model.TeamInvite
type Template = model.Template
type TemplateAccess = model.TemplateAccess
type TemplateAttachment = model.TemplateAttachment

const TemplateDraft = model.TemplateDraft

type TemplateEditURL = model.TemplateEditURL
type TemplateEditorOptions = model.TemplateEditorOptions

const TemplateError = model.TemplateError

type TemplateField = model.TemplateField
type TemplateMergeField = model.TemplateMergeField

const TemplatePreparing = model.TemplatePreparing
const TemplateReady = model.TemplateReady

type TemplateRole = model.TemplateRole
type UnclaimedDraft = model.UnclaimedDraft
