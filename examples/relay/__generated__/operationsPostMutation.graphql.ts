/**
 * @generated SignedSource<<092cb2ddef913a27529fe578f5beec4b>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
export type ActivityType = "CC_SKIING" | "COMMUTE" | "CORE_FITNESS" | "CROSSFIT" | "CROSS_TRAINING" | "CYCLING" | "ELLIPTICAL" | "FITNESS" | "HIKING" | "INLINE_SKATING" | "ROCK_CLIMBING" | "ROWING" | "RUNNING" | "SPINNING" | "SWIMMING" | "WALKING" | "WEIGHTS" | "YOGA" | "%future added value";
export type DistanceUnits = "KILOMETERS" | "METERS" | "MILES" | "YARDS" | "%future added value";
export type Felt = "ALRIGHT" | "BLAH" | "GOOD" | "GREAT" | "INJURED" | "TIRED" | "%future added value";
export type MediaType = "IMAGE" | "%future added value";
export type Visibility = "EVERYONE" | "FRIENDS" | "ONLY_ME" | "%future added value";
export type CreateEntryInput = {
  clientMutationId?: string | null | undefined;
  lat?: number | null | undefined;
  lon?: number | null | undefined;
  media?: MediaInput | null | undefined;
  message?: string | null | undefined;
  placeName?: string | null | undefined;
  visibility?: Visibility | null | undefined;
  workout?: WorkoutInput | null | undefined;
};
export type MediaInput = {
  data?: any | null | undefined;
  previewUrl?: string | null | undefined;
  type: MediaType;
  url?: string | null | undefined;
};
export type WorkoutInput = {
  activityType: ActivityType;
  calories?: number | null | undefined;
  completedAt?: any | null | undefined;
  distance?: DistanceInput | null | undefined;
  duration?: number | null | undefined;
  felt?: Felt | null | undefined;
  gearId?: string | null | undefined;
  routeId?: string | null | undefined;
  title?: string | null | undefined;
};
export type DistanceInput = {
  units?: DistanceUnits | null | undefined;
  value: number;
};
export type operationsPostMutation$variables = {
  connections: ReadonlyArray<string>;
  input: CreateEntryInput;
};
export type operationsPostMutation$data = {
  readonly createEntry: {
    readonly clientMutationId: string | null | undefined;
    readonly entryEdge: {
      readonly cursor: string;
      readonly node: {
        readonly author: {
          readonly displayName: string;
          readonly id: string;
        };
        readonly id: string;
        readonly message: string | null | undefined;
      };
    } | null | undefined;
    readonly error: {
      readonly __typename: "ValidationError";
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path: string;
      }>;
    } | {
      // This will never be '%other', but we need some
      // value in case none of the concrete values match.
      readonly __typename: "%other";
    } | null | undefined;
  };
};
export type operationsPostMutation = {
  response: operationsPostMutation$data;
  variables: operationsPostMutation$variables;
};

const node: ConcreteRequest = (function(){
var v0 = {
  "defaultValue": null,
  "kind": "LocalArgument",
  "name": "connections"
},
v1 = {
  "defaultValue": null,
  "kind": "LocalArgument",
  "name": "input"
},
v2 = [
  {
    "kind": "Variable",
    "name": "input",
    "variableName": "input"
  }
],
v3 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "clientMutationId",
  "storageKey": null
},
v4 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "id",
  "storageKey": null
},
v5 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "message",
  "storageKey": null
},
v6 = {
  "alias": null,
  "args": null,
  "concreteType": "EntryEdge",
  "kind": "LinkedField",
  "name": "entryEdge",
  "plural": false,
  "selections": [
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "cursor",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "concreteType": "Entry",
      "kind": "LinkedField",
      "name": "node",
      "plural": false,
      "selections": [
        (v4/*:: as any*/),
        (v5/*:: as any*/),
        {
          "alias": null,
          "args": null,
          "concreteType": "Person",
          "kind": "LinkedField",
          "name": "author",
          "plural": false,
          "selections": [
            (v4/*:: as any*/),
            {
              "alias": null,
              "args": null,
              "kind": "ScalarField",
              "name": "displayName",
              "storageKey": null
            }
          ],
          "storageKey": null
        }
      ],
      "storageKey": null
    }
  ],
  "storageKey": null
},
v7 = {
  "alias": null,
  "args": null,
  "concreteType": null,
  "kind": "LinkedField",
  "name": "error",
  "plural": false,
  "selections": [
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "__typename",
      "storageKey": null
    },
    {
      "kind": "InlineFragment",
      "selections": [
        {
          "alias": null,
          "args": null,
          "concreteType": "FieldIssue",
          "kind": "LinkedField",
          "name": "issues",
          "plural": true,
          "selections": [
            {
              "alias": null,
              "args": null,
              "kind": "ScalarField",
              "name": "path",
              "storageKey": null
            },
            (v5/*:: as any*/)
          ],
          "storageKey": null
        }
      ],
      "type": "ValidationError",
      "abstractKey": null
    }
  ],
  "storageKey": null
};
return {
  "fragment": {
    "argumentDefinitions": [
      (v0/*:: as any*/),
      (v1/*:: as any*/)
    ],
    "kind": "Fragment",
    "metadata": null,
    "name": "operationsPostMutation",
    "selections": [
      {
        "alias": null,
        "args": (v2/*:: as any*/),
        "concreteType": "CreateEntryPayload",
        "kind": "LinkedField",
        "name": "createEntry",
        "plural": false,
        "selections": [
          (v3/*:: as any*/),
          (v6/*:: as any*/),
          (v7/*:: as any*/)
        ],
        "storageKey": null
      }
    ],
    "type": "Mutation",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": [
      (v1/*:: as any*/),
      (v0/*:: as any*/)
    ],
    "kind": "Operation",
    "name": "operationsPostMutation",
    "selections": [
      {
        "alias": null,
        "args": (v2/*:: as any*/),
        "concreteType": "CreateEntryPayload",
        "kind": "LinkedField",
        "name": "createEntry",
        "plural": false,
        "selections": [
          (v3/*:: as any*/),
          (v6/*:: as any*/),
          {
            "alias": null,
            "args": null,
            "filters": null,
            "handle": "prependEdge",
            "key": "",
            "kind": "LinkedHandle",
            "name": "entryEdge",
            "handleArgs": [
              {
                "kind": "Variable",
                "name": "connections",
                "variableName": "connections"
              }
            ]
          },
          (v7/*:: as any*/)
        ],
        "storageKey": null
      }
    ]
  },
  "params": {
    "cacheID": "c468e4fa8282933d6668f40cc9d4069d",
    "id": null,
    "metadata": {},
    "name": "operationsPostMutation",
    "operationKind": "mutation",
    "text": "mutation operationsPostMutation(\n  $input: CreateEntryInput!\n) {\n  createEntry(input: $input) {\n    clientMutationId\n    entryEdge {\n      cursor\n      node {\n        id\n        message\n        author {\n          id\n          displayName\n        }\n      }\n    }\n    error {\n      __typename\n      ... on ValidationError {\n        issues {\n          path\n          message\n        }\n      }\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "ffc63d65b18c5042530273451a6d9db5";

export default node;
