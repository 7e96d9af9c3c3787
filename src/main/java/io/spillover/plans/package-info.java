/**
 * Training plans: reserved capacity, each an offering of its own, used first by the entries that name it
 * and only by the teams it is shared with; its status follows its window under the local provider.
 */
package io.spillover.plans;
