/**
 * @generated SignedSource<<253b5faf468279461be18e111d37ecde>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
export type DeleteEntryInput = {
  clientMutationId?: string | null | undefined;
  id: string;
};
export type operationsDeleteEntryMutation$variables = {
  input: DeleteEntryInput;
};
export type operationsDeleteEntryMutation$data = {
  readonly deleteEntry: {
    readonly deletedEntry: {
      readonly databaseId: number;
      readonly entryId: string;
    } | null | undefined;
    readonly deletedEntryId: string | null | undefined;
  };
};
export type operationsDeleteEntryMutation = {
  response: operationsDeleteEntryMutation$data;
  variables: operationsDeleteEntryMutation$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "input"
  }
],
v1 = [
  {
    "kind": "Variable",
    "name": "input",
    "variableName": "input"
  }
],
v2 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "deletedEntryId",
  "storageKey": null
},
v3 = {
  "alias": null,
  "args": null,
  "concreteType": "DeletedEntry",
  "kind": "LinkedField",
  "name": "deletedEntry",
  "plural": false,
  "selections": [
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "entryId",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "databaseId",
      "storageKey": null
    }
  ],
  "storageKey": null
};
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "operationsDeleteEntryMutation",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "DeleteEntryPayload",
        "kind": "LinkedField",
        "name": "deleteEntry",
        "plural": false,
        "selections": [
          (v2/*:: as any*/),
          (v3/*:: as any*/)
        ],
        "storageKey": null
      }
    ],
    "type": "Mutation",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Operation",
    "name": "operationsDeleteEntryMutation",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "DeleteEntryPayload",
        "kind": "LinkedField",
        "name": "deleteEntry",
        "plural": false,
        "selections": [
          (v2/*:: as any*/),
          {
            "alias": null,
            "args": null,
            "filters": null,
            "handle": "deleteRecord",
            "key": "",
            "kind": "ScalarHandle",
            "name": "deletedEntryId"
          },
          (v3/*:: as any*/)
        ],
        "storageKey": null
      }
    ]
  },
  "params": {
    "cacheID": "87be535d30d24641bb4c661809171618",
    "id": null,
    "metadata": {},
    "name": "operationsDeleteEntryMutation",
    "operationKind": "mutation",
    "text": "mutation operationsDeleteEntryMutation(\n  $input: DeleteEntryInput!\n) {\n  deleteEntry(input: $input) {\n    deletedEntryId\n    deletedEntry {\n      entryId\n      databaseId\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "156f3df1595ff85cf76b265cebd370c3";

export default node;
