/** Coach consist lookup (spec section 3: trainNo, startDate, trainEvent default 'C'). */
export interface ConsistRequest {
  trainNo: string;
  startDate: string;
  trainEvent?: string;
}

export interface ConsistCoach {
  seq: number;
  coachId: string;
  class: string;
  capacity: number;
}

export interface ConsistResponse {
  trainNo: string;
  startDate: string;
  trainEvent: string;
  coaches: ConsistCoach[];
}
