/**
 * @generated SignedSource<<471e15aa3b07c75f3c0e625b998e33d3>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
export type operationsCommentsSubscription$variables = {
  entryId: string;
};
export type operationsCommentsSubscription$data = {
  readonly entryComments: {
    readonly body: string;
    readonly id: string;
  };
};
export type operationsCommentsSubscription = {
  response: operationsCommentsSubscription$data;
  variables: operationsCommentsSubscription$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "entryId"
  }
],
v1 = [
  {
    "alias": null,
    "args": [
      {
        "kind": "Variable",
        "name": "entryId",
        "variableName": "entryId"
      }
    ],
    "concreteType": "Comment",
    "kind": "LinkedField",
    "name": "entryComments",
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
        "name": "body",
        "storageKey": null
      }
    ],
    "storageKey": null
  }
];
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "operationsCommentsSubscription",
    "selections": (v1/*:: as any*/),
    "type": "Subscription",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Operation",
    "name": "operationsCommentsSubscription",
    "selections": (v1/*:: as any*/)
  },
  "params": {
    "cacheID": "88fe2b242111049f27df1de7778fa8fd",
    "id": null,
    "metadata": {},
    "name": "operationsCommentsSubscription",
    "operationKind": "subscription",
    "text": "subscription operationsCommentsSubscription(\n  $entryId: ID!\n) {\n  entryComments(entryId: $entryId) {\n    id\n    body\n  }\n}\n"
  }
};
})();

(node as any).hash = "16befe7ebccbf845ff75c23061c9840f";

export default node;
