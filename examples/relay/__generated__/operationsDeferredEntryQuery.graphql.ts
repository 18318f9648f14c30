/**
 * @generated SignedSource<<d8f5fd1e7b48ebf0d0ca2d0b50566c5e>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ConcreteRequest } from 'relay-runtime';
import { FragmentRefs } from "relay-runtime";
export type operationsDeferredEntryQuery$variables = {
  id: string;
};
export type operationsDeferredEntryQuery$data = {
  readonly entry: {
    readonly comments: {
      readonly edges: ReadonlyArray<{
        readonly node: {
          readonly id: string;
        };
      }>;
    };
    readonly id: string;
    readonly " $fragmentSpreads": FragmentRefs<"operations_entry">;
  } | null | undefined;
};
export type operationsDeferredEntryQuery = {
  response: operationsDeferredEntryQuery$data;
  variables: operationsDeferredEntryQuery$variables;
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
],
v2 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "id",
  "storageKey": null
},
v3 = [
  {
    "kind": "Literal",
    "name": "first",
    "value": 5
  }
],
v4 = [
  {
    "alias": null,
    "args": null,
    "concreteType": "CommentEdge",
    "kind": "LinkedField",
    "name": "edges",
    "plural": true,
    "selections": [
      {
        "alias": null,
        "args": null,
        "concreteType": "Comment",
        "kind": "LinkedField",
        "name": "node",
        "plural": false,
        "selections": [
          (v2/*:: as any*/)
        ],
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
    "name": "operationsDeferredEntryQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Entry",
        "kind": "LinkedField",
        "name": "entry",
        "plural": false,
        "selections": [
          (v2/*:: as any*/),
          {
            "kind": "Defer",
            "selections": [
              {
                "args": null,
                "kind": "FragmentSpread",
                "name": "operations_entry"
              }
            ]
          },
          {
            "alias": null,
            "args": (v3/*:: as any*/),
            "concreteType": "CommentConnection",
            "kind": "LinkedField",
            "name": "comments",
            "plural": false,
            "selections": [
              {
                "kind": "Stream",
                "selections": (v4/*:: as any*/)
              }
            ],
            "storageKey": "comments(first:5)"
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
    "name": "operationsDeferredEntryQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Entry",
        "kind": "LinkedField",
        "name": "entry",
        "plural": false,
        "selections": [
          (v2/*:: as any*/),
          {
            "if": null,
            "kind": "Defer",
            "label": "operationsDeferredEntryQuery$defer$card",
            "selections": [
              (v2/*:: as any*/),
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
            ]
          },
          {
            "alias": null,
            "args": (v3/*:: as any*/),
            "concreteType": "CommentConnection",
            "kind": "LinkedField",
            "name": "comments",
            "plural": false,
            "selections": [
              {
                "if": null,
                "kind": "Stream",
                "label": "operationsDeferredEntryQuery$stream$comments",
                "selections": (v4/*:: as any*/)
              }
            ],
            "storageKey": "comments(first:5)"
          }
        ],
        "storageKey": null
      }
    ]
  },
  "params": {
    "cacheID": "4611e96270a7cb111a0e02aae120bbea",
    "id": null,
    "metadata": {},
    "name": "operationsDeferredEntryQuery",
    "operationKind": "query",
    "text": "query operationsDeferredEntryQuery(\n  $id: ID!\n) {\n  entry(id: $id) {\n    id\n    ...operations_entry @defer(label: \"operationsDeferredEntryQuery$defer$card\")\n    comments(first: 5) {\n      edges @stream(label: \"operationsDeferredEntryQuery$stream$comments\", initialCount: 1) {\n        node {\n          id\n        }\n      }\n    }\n  }\n}\n\nfragment operations_entry on Entry {\n  id\n  message\n  likeCount\n}\n"
  }
};
})();

(node as any).hash = "7e765ffb0a7cb17bd1951e53b7928e7b";

export default node;
