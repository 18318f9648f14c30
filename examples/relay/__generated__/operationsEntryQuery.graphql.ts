/**
 * @generated SignedSource<<9f4f94b9842bba6d1a0e2feef7ea44e7>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
import { FragmentRefs } from "relay-runtime";
export type operationsEntryQuery$variables = {
  id: string;
};
export type operationsEntryQuery$data = {
  readonly entry: {
    readonly " $fragmentSpreads": FragmentRefs<"operations_entry">;
  } | null | undefined;
};
export type operationsEntryQuery = {
  response: operationsEntryQuery$data;
  variables: operationsEntryQuery$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "id"
  }
],
v1 = [
  {
    "kind": "Variable",
    "name": "id",
    "variableName": "id"
  }
];
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "operationsEntryQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Entry",
        "kind": "LinkedField",
        "name": "entry",
        "plural": false,
        "selections": [
          {
            "args": null,
            "kind": "FragmentSpread",
            "name": "operations_entry"
          }
        ],
        "storageKey": null
      }
    ],
    "type": "Query",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Operation",
    "name": "operationsEntryQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Entry",
        "kind": "LinkedField",
        "name": "entry",
        "plural": false,
        "selections": [
          {
            "alias": null,
            "args": null,
            "kind": "ScalarField",
            "name": "id",
            "storageKey": null
          },
          {
            "alias": null,
            "args": null,
            "kind": "ScalarField",
            "name": "message",
            "storageKey": null
          },
          {
            "alias": null,
            "args": null,
            "kind": "ScalarField",
            "name": "likeCount",
            "storageKey": null
          }
        ],
        "storageKey": null
      }
    ]
  },
  "params": {
    "cacheID": "bf4107d323673896f494f219039d33c9",
    "id": null,
    "metadata": {},
    "name": "operationsEntryQuery",
    "operationKind": "query",
    "text": "query operationsEntryQuery(\n  $id: ID!\n) {\n  entry(id: $id) {\n    ...operations_entry\n    id\n  }\n}\n\nfragment operations_entry on Entry {\n  id\n  message\n  likeCount\n}\n"
  }
};
})();

(node as any).hash = "407ab2f7110ca3b1f3f58b49d7ac6aab";

export default node;
