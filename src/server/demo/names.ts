import type { Rng } from './prng';

/**
 * Synthetic Indian names and mobile numbers. The lists mix regions so any train's chart looks plausible;
 * combinations are random, so no row describes a real person.
 */
const MALE = [
  'Aarav', 'Abhishek', 'Aditya', 'Ajay', 'Akash', 'Amit', 'Anand', 'Anil', 'Arjun', 'Arun', 'Ashok', 'Deepak',
  'Dinesh', 'Ganesh', 'Gaurav', 'Harish', 'Hemant', 'Jagdish', 'Karthik', 'Kishore', 'Krishna', 'Kunal', 'Mahesh',
  'Manoj', 'Mohan', 'Mukesh', 'Naveen', 'Nikhil', 'Pankaj', 'Pradeep', 'Prakash', 'Pranav', 'Rahul', 'Rajesh',
  'Rakesh', 'Ramesh', 'Ravi', 'Rohit', 'Sachin', 'Sandeep', 'Sanjay', 'Santosh', 'Saravanan', 'Senthil', 'Shankar',
  'Shyam', 'Siddharth', 'Sunil', 'Suresh', 'Tarun', 'Uday', 'Varun', 'Venkatesh', 'Vijay', 'Vikas', 'Vinod',
  'Vishal', 'Yash', 'Balaji', 'Murugan', 'Sreejith', 'Anoop', 'Subhash', 'Debashis', 'Sourav', 'Imran', 'Farhan',
  'Gurpreet', 'Harpreet', 'Joseph', 'Thomas', 'Manish', 'Nitin', 'Omkar', 'Parth', 'Raghav', 'Tushar',
];
const FEMALE = [
  'Aarti', 'Aishwarya', 'Ananya', 'Anita', 'Anjali', 'Bhavana', 'Deepa', 'Divya', 'Gayathri', 'Geeta', 'Isha',
  'Jyoti', 'Kavita', 'Kavya', 'Lakshmi', 'Lata', 'Madhuri', 'Meena', 'Meera', 'Neha', 'Nisha', 'Pooja', 'Priya',
  'Radha', 'Rekha', 'Ritu', 'Sakshi', 'Sangeeta', 'Sarita', 'Shalini', 'Shanti', 'Shreya', 'Sneha', 'Sunita',
  'Swati', 'Tanvi', 'Uma', 'Usha', 'Vandana', 'Vidya', 'Yamini', 'Revathi', 'Meenakshi', 'Sreelakshmi', 'Anusha',
  'Moumita', 'Riya', 'Fatima', 'Ayesha', 'Simran', 'Harleen', 'Mary', 'Nandini', 'Pallavi', 'Rashmi', 'Smita',
];
const LAST = [
  'Sharma', 'Verma', 'Gupta', 'Singh', 'Kumar', 'Yadav', 'Agarwal', 'Jain', 'Mishra', 'Pandey', 'Tiwari', 'Shukla',
  'Srivastava', 'Chauhan', 'Rathore', 'Patel', 'Shah', 'Desai', 'Mehta', 'Joshi', 'Kulkarni', 'Deshpande', 'Patil',
  'Pawar', 'Jadhav', 'Shinde', 'Naik', 'Iyer', 'Iyengar', 'Nair', 'Menon', 'Pillai', 'Reddy', 'Rao', 'Naidu',
  'Krishnan', 'Subramanian', 'Raman', 'Murthy', 'Banerjee', 'Chatterjee', 'Mukherjee', 'Das', 'Ghosh', 'Bose',
  'Sen', 'Roy', 'Dutta', 'Sinha', 'Prasad', 'Chaudhary', 'Thakur', 'Saxena', 'Bhatt', 'Trivedi', 'Kapoor',
  'Malhotra', 'Khanna', 'Arora', 'Gill', 'Sandhu', 'Khan', 'Qureshi', 'Ansari', 'Fernandes', 'DSouza', 'Thomas',
  'Varghese', 'Kurian', 'Rajan', 'Gowda', 'Hegde', 'Shetty', 'Mahajan', 'Bhardwaj', 'Dubey', 'Tripathi',
];

export function personName(rng: Rng, gender: 'M' | 'F' | 'T'): string {
  const first = gender === 'F' ? rng.pick(FEMALE) : gender === 'M' ? rng.pick(MALE) : rng.pick(rng.chance(0.5) ? MALE : FEMALE);
  return `${first} ${rng.pick(LAST)}`;
}

/** Ten digits starting 6-9, as Indian mobile numbers do. */
export function mobileNumber(rng: Rng): string {
  let s = String(rng.int(6, 9));
  for (let i = 0; i < 9; i++) s += String(rng.int(0, 9));
  return s;
}
