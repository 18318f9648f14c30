/**
 * @generated SignedSource<<4bb18a4f6160cfc525921d3dc9fde579>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ReaderFragment } from 'relay-runtime';
import { FragmentRefs } from "relay-runtime";
export type operations_entry$data = {
  readonly id: string;
  readonly likeCount: number;
  readonly message: string | null | undefined;
  readonly " $fragmentType": "operations_entry";
};
export type operations_entry$key = {
  readonly " $data"?: operations_entry$data;
  readonly " $fragmentSpreads": FragmentRefs<"operations_entry">;
};

import operationsEntryRefetchQuery_graphql from './operationsEntryRefetchQuery.graphql';

const node: ReaderFragment = {
  "argumentDefinitions": [],
  "kind": "Fragment",
  "metadata": {
    "refetch": {
      "connection": null,
      "fragmentPathInResult": [
        "node"
      ],
      "operation": operationsEntryRefetchQuery_graphql,
      "identifierInfo": {
        "identifierField": "id",
        "identifierQueryVariableName": "id"
      }
    }
  },
  "name": "operations_entry",
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
  "type": "Entry",
  "abstractKey": null
};

(node as any).hash = "264cd6abb92ba7d51cc5d20816c6c0be";

export default node;
