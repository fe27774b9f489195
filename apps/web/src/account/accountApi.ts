import {
  type AccountDeleted,
  type AccountSeatsResponse,
  type AddPasskeyRequest,
  accountDeletedSchema,
  accountSeatsResponseSchema,
  apiRoutes,
  type JoinSeatsRequest,
  type JoinSeatsResponse,
  joinSeatsResponseSchema,
  type PasskeyCode,
  type PasskeyCodePasskey,
  type PasskeyList,
  passkeyCodeSchema,
  passkeyListSchema,
  type RecoverySignInRequest,
  type SignedInResponse,
  type SignedOutResponse,
  type SignInOptionsResponse,
  type SignInRequest,
  type SignUpOptionsResponse,
  type SignUpRequest,
  type SignUpResponse,
  signedInResponseSchema,
  signedOutResponseSchema,
  signInOptionsResponseSchema,
  signUpOptionsResponseSchema,
  signUpResponseSchema,
} from '@iron-curtain/protocol';
import { call } from '../lobby/api.ts';

/** The account routes of the server (apps/server/src/accounts/account-routes.ts), each answer checked. */
export const accountApi = {
  /** The signed-in account, or NOT_SIGNED_IN. */
  account: (): Promise<SignedInResponse> => call(signedInResponseSchema, apiRoutes.account),
  /** A name's refusals (NAME_TAKEN, NAME_TOO_CLOSE, NAME_NOT_ALLOWED) come here, before any passkey. */
  signUpOptions: (username: string): Promise<SignUpOptionsResponse> =>
    call(signUpOptionsResponseSchema, apiRoutes.signUpOptions, { username }),
  signUp: (body: SignUpRequest): Promise<SignUpResponse> =>
    call(signUpResponseSchema, apiRoutes.signUp, body),
  signInOptions: (): Promise<SignInOptionsResponse> =>
    call(signInOptionsResponseSchema, apiRoutes.signInOptions, {}),
  signIn: (body: SignInRequest): Promise<SignedInResponse> =>
    call(signedInResponseSchema, apiRoutes.signIn, body),
  recoverySignIn: (body: RecoverySignInRequest): Promise<SignedInResponse> =>
    call(signedInResponseSchema, apiRoutes.recoverySignIn, body),
  /** The signed-in account's seats, with their credentials. */
  accountSeats: (): Promise<AccountSeatsResponse> =>
    call(accountSeatsResponseSchema, apiRoutes.accountSeats),
  /** Seats this browser holds join the signed-in account (each proven by its credentials). */
  joinSeats: (body: JoinSeatsRequest): Promise<JoinSeatsResponse> =>
    call(joinSeatsResponseSchema, apiRoutes.accountSeats, body),
  passkeys: (): Promise<PasskeyList> => call(passkeyListSchema, apiRoutes.passkeys),
  passkeyOptions: (): Promise<SignUpOptionsResponse> =>
    call(signUpOptionsResponseSchema, apiRoutes.passkeyOptions, {}),
  addPasskey: (body: AddPasskeyRequest): Promise<PasskeyList> =>
    call(passkeyListSchema, apiRoutes.passkeys, body),
  removePasskey: (id: string): Promise<PasskeyList> =>
    call(passkeyListSchema, apiRoutes.passkeys, { id }, 'DELETE'),
  /** A one-time code, shown here, with which another device makes a passkey of this account. */
  passkeyCode: (): Promise<PasskeyCode> => call(passkeyCodeSchema, apiRoutes.passkeyCodes, {}),
  /** On the other device: the code's creation options (its refusals: PASSKEY_CODE_*). */
  passkeyCodeOptions: (code: string): Promise<SignUpOptionsResponse> =>
    call(signUpOptionsResponseSchema, apiRoutes.passkeyCodeOptions, { code }),
  /** The passkey made for those options: this device is signed in. */
  passkeyCodePasskey: (body: PasskeyCodePasskey): Promise<SignedInResponse> =>
    call(signedInResponseSchema, apiRoutes.passkeyCodePasskey, body),
  deleteAccount: (): Promise<AccountDeleted> =>
    call(accountDeletedSchema, apiRoutes.account, {}, 'DELETE'),
  signOut: (): Promise<SignedOutResponse> => call(signedOutResponseSchema, apiRoutes.signOut, {}),
  signOutEverywhere: (): Promise<SignedOutResponse> =>
    call(signedOutResponseSchema, apiRoutes.signOutEverywhere, {}),
};
